import type { Subscription } from "rxjs";
import { RoutekitError } from "../errors/errors.js";
import { reportConsumerFailure } from "../exchange/report-consumer-failure.js";
import { defineComponent } from "./component.js";

/**
 * `timer:name?period=1000&delay=0&repeatCount=0` — fires an InOnly exchange every period.
 * A tick that comes while the previous exchange is still running is skipped (no backlog);
 * `repeatCount` counts exchanges fired, not ticks.
 * Headers: `timer.name`, `timer.firedTime` (Date), `timer.counter` (from 1).
 */
export const timerComponent = defineComponent({
  scheme: "timer",
  traits: { inProcess: true, messagingSystem: "routekit" },
  options: {
    period: { type: "integer", default: 1000, min: 1 },
    delay: { type: "integer", default: 0, min: 0 },
    repeatCount: { type: "integer", default: 0, min: 0, description: "0 = forever" },
  },
  createEndpoint(address, context) {
    const { period, delay, repeatCount } = address.options;
    const name = address.path;
    if (name === "")
      throw new RoutekitError(
        "URI_INVALID",
        `Endpoint '${address.uri}': timer needs a name, e.g. 'timer:tick'`,
      );
    return {
      uri: address.uri,
      send() {
        throw new RoutekitError(
          "ROUTE_INVALID",
          `Endpoint '${address.uri}': a timer can only be consumed from, not sent to`,
        );
      },
      createConsumer(processor) {
        let subscription: Subscription | undefined;
        let running = false;
        return {
          async start() {
            running = true;
            // rxjs is loaded when the first timer starts, so importing core stays cheap.
            const { exhaustMap, from, of, take, timer } = await import("rxjs");
            if (!running) return; // stopped while rxjs was loading
            let counter = 0;
            // exhaustMap drops ticks while an exchange runs; take() counts the exchanges fired.
            const fired = timer(delay, period).pipe(
              exhaustMap(() => {
                const exchange = context.createExchange({
                  headers: { "timer.name": name, "timer.firedTime": new Date(), "timer.counter": ++counter },
                });
                exchange.fromEndpoint = address.uri;
                const report = () =>
                  reportConsumerFailure(context, exchange, address.uri, { kind: "dropped" });
                const result = processor(exchange);
                if (result === undefined) {
                  report();
                  return of(undefined);
                }
                return from(result.then(report));
              }),
            );
            subscription = (repeatCount > 0 ? fired.pipe(take(repeatCount)) : fired).subscribe();
          },
          stop() {
            running = false;
            subscription?.unsubscribe();
            subscription = undefined;
          },
        };
      },
    };
  },
});
