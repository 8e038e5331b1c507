#!/usr/bin/env bash
# Starts RabbitMQ when nothing accepts connections on 127.0.0.1:5672, then waits until it
# does (up to RABBITMQ_WAIT_SECONDS, default 60). Exits non-zero when it never comes up.
set -euo pipefail

host=127.0.0.1
port=5672
limit="${RABBITMQ_WAIT_SECONDS:-60}"

accepting() {
  (exec 3<>"/dev/tcp/${host}/${port}") 2>/dev/null
}

if accepting; then
  echo "RabbitMQ: accepting connections on ${host}:${port}"
  exit 0
fi

if ! command -v rabbitmq-server >/dev/null 2>&1; then
  echo "RabbitMQ: nothing listens on ${host}:${port} and rabbitmq-server is not installed" >&2
  exit 1
fi

echo "RabbitMQ: not running; starting it with 'rabbitmq-server -detached'"
rabbitmq-server -detached

for ((second = 1; second <= limit; second++)); do
  sleep 1
  if accepting; then
    echo "RabbitMQ: accepting connections on ${host}:${port} after ${second} s"
    exit 0
  fi
done

echo "RabbitMQ: still not accepting connections on ${host}:${port} after ${limit} s" >&2
exit 1
