/** The console token from the page's URL (`?token=`), sent with every request. */
const token = new URLSearchParams(location.search).get("token") ?? undefined;

function headers(): Record<string, string> {
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

async function parse<TValue>(response: Response): Promise<TValue> {
  const body = (await response.json()) as TValue & { error?: string };
  if (!response.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
  return body;
}

/** GET an API path and parse its JSON; a refusal throws with the server's message. */
export async function getJson<TValue>(path: string): Promise<TValue> {
  return parse<TValue>(await fetch(path, { headers: headers() }));
}

/** POST to an API path (start and stop). */
export async function postJson<TValue>(path: string): Promise<TValue> {
  return parse<TValue>(await fetch(path, { method: "POST", headers: headers() }));
}

/** The live event stream; EventSource sends no headers, so the token rides in its URL. */
export function openEvents(): EventSource {
  const query = token === undefined ? "" : `?token=${encodeURIComponent(token)}`;
  return new EventSource(`/api/events${query}`);
}
