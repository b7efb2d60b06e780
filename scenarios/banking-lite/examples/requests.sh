#!/bin/sh
# Requests to try against `mock serve` serving this scenario.
curl localhost:3000/v1/transfers/trf_9WkP3nY6Hd -H 'Prefer: example=completed'
