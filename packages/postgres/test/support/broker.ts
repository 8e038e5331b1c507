import { howToStart, skipForMissing } from "@routekit/test-support";
import { connect } from "amqplib";

/** The RabbitMQ the scale-out test uses (loopback only). */
export const brokerUrl = "amqp://guest:guest@127.0.0.1:5672";

async function probe(): Promise<boolean> {
  try {
    const connection = await connect(brokerUrl, { timeout: 3000 });
    await connection.close();
    return true;
  } catch (error) {
    skipForMissing("RabbitMQ on 127.0.0.1:5672", howToStart("RabbitMQ"), error);
    return false;
  }
}

/** True when RabbitMQ answers; false (after one line saying how to start it) when it does not. */
export const brokerAvailable = await probe();
