#!/bin/sh
# Requests to try against `mock serve` serving this scenario.
curl localhost:3000/v1/subscriptions/sub_2Kd8VnW4sT -H 'authorization: Bearer demo' -H 'Prefer: example=active'
