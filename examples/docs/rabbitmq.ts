// The code of docs/guide/rabbitmq.md: type-checked, not run (it needs a RabbitMQ broker).
// #region orders

import { amqpPlugin } from "@routekit/amqp";
import { createContext } from "@routekit/core";

const context = createContext();
context.use(amqpPlugin()); // AMQP_URL, else amqp://guest:guest@127.0.0.1:5672

await context.addRoutes((r) => {
  r.from("amqp:queue:orders?prefetch=20&maxRedeliveries=3")
    .routeId("orders")
    .process((exchange) => {
      console.log("order", exchange.body); // the decoded JSON order
    })
    .to("amqp:exchange:events?exchangeType=topic&routingKey=order.accepted");
});
await context.start();

await context.send("amqp:queue:orders", { id: 42, items: 3 }); // resolves once the broker confirmed it
// #endregion orders
