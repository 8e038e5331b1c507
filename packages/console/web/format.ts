/** `12.3 ms`, `1.24 s`, or `–` when unknown. */
export function formatMs(value: number | undefined): string {
  if (value === undefined) return "–";
  if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
  if (value >= 10) return `${value.toFixed(0)} ms`;
  return `${value.toFixed(2)} ms`;
}

/** `14:02:11.204` in local time. */
export function formatTime(epochMs: number): string {
  const date = new Date(epochMs);
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

/** `$0.0123` (four decimals; six below a tenth of a cent), or `–` when the model has no price. */
export function formatUsd(value: number | undefined): string {
  if (value === undefined) return "–";
  return `$${value.toFixed(value !== 0 && value < 0.001 ? 6 : 4)}`;
}
