#!/bin/sh
# Requests to try against `mock serve` serving this scenario.
curl localhost:3000/api/orders/ord_1b7e44a0c2 -H 'Prefer: example=shipped'
