// The code of packages/amqp/README.md: type-checked, not run (it needs a RabbitMQ broker).
// #region usage

import { amqpPlugin } from "@routekit/amqp";
import { createContext } from "@routekit/core";

const context = createContext();
context.use(amqpPlugin({ url: "amqp://guest:guest@127.0.0.1:5672" })); // default: AMQP_URL, else this URL

await context.addRoutes((r) => {
  r.from("amqp:queue:orders?prefetch=20&maxRedeliveries=3")
    .routeId("orders")
    .process((exchange) => {
      console.log("order", exchange.body); // the decoded JSON
    })
    .to("amqp:exchange:events?exchangeType=topic&routingKey=order.accepted");
});
await context.start();
await context.send("amqp:queue:orders", { id: 42 }); // resolves once the broker confirmed it
const answer = await context.request("amqp:queue:rates", "EUR"); // request-reply over direct reply-to
console.log("rate", answer);
await context.stop(); // cancel, finish in-flight, ack, close
// #endregion usage
