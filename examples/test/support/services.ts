import { connect } from "node:net";

/** True when something accepts connections on `port` on this machine. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.setTimeout(1000);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const PORTS = { RabbitMQ: 5672, Redis: 6379, PostgreSQL: 5432 } as const;

/** The services of `names` that do not answer on 127.0.0.1, as "<name> on 127.0.0.1:<port>". */
export async function missingServices(names: ReadonlyArray<keyof typeof PORTS>): Promise<string[]> {
  const missing: string[] = [];
  for (const name of names) {
    if (!(await listening(PORTS[name]))) missing.push(`${name} on 127.0.0.1:${PORTS[name]}`);
  }
  return missing;
}
