import { startChatServer } from "./chat-server.js";

const port = Number(process.env.PORT ?? 3000);
const server = await startChatServer({ port });
console.log(`chat-stream: open ${server.url}/ (or: curl -N '${server.url}/chat?q=What+time+is+it%3F')`);
const stop = (): void => {
  server.stop().then(() => process.exit(0));
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
