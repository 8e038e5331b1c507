/** One line of a chart: a name for the legend, a colour, and its points in data units. */
export interface ChartSeries {
  name: string;
  color: string;
  points: ReadonlyArray<readonly [x: number, y: number]>;
}

/** A line chart: titles, axis labels and the series to draw. */
export interface LineChart {
  title: string;
  xLabel: string;
  yLabel: string;
  series: readonly ChartSeries[];
}

const WIDTH = 640;
const HEIGHT = 400;
const MARGIN = { left: 80, right: 24, top: 48, bottom: 56 };
const TICKS = 5;

const escapeXml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Rounds a span up to 1, 2 or 5 times a power of ten, for tick steps. */
function niceStep(span: number): number {
  if (!(span > 0)) return 1;
  const raw = span / TICKS;
  const power = 10 ** Math.floor(Math.log10(raw));
  const scaled = raw / power;
  return (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10) * power;
}

const label = (value: number) =>
  Math.abs(value) >= 1000
    ? value.toLocaleString("en-US", { maximumFractionDigits: 0 })
    : String(Number(value.toPrecision(3)));

/**
 * Renders a line chart as a self-contained SVG document: linear axes from zero, gridlines with
 * ticks, one polyline with point markers per series, and a legend. Throws on a chart with no points.
 */
export function renderLineChart(chart: LineChart): string {
  const points = chart.series.flatMap((series) => series.points);
  if (points.length === 0) throw new Error(`chart '${chart.title}': expected at least one point, found none`);
  for (const [x, y] of points) {
    if (!Number.isFinite(x) || !Number.isFinite(y))
      throw new Error(`chart '${chart.title}': expected finite numbers, found point (${x}, ${y})`);
  }
  const xStep = niceStep(Math.max(...points.map(([x]) => x)));
  const yStep = niceStep(Math.max(...points.map(([, y]) => y)));
  const xMax = Math.ceil(Math.max(...points.map(([x]) => x)) / xStep) * xStep || 1;
  const yMax = Math.ceil(Math.max(...points.map(([, y]) => y)) / yStep) * yStep || 1;
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const toX = (x: number) => (MARGIN.left + (x / xMax) * plotWidth).toFixed(1);
  const toY = (y: number) => (MARGIN.top + plotHeight - (y / yMax) * plotHeight).toFixed(1);

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${WIDTH / 2}" y="24" text-anchor="middle" font-size="15">${escapeXml(chart.title)}</text>`,
  ];
  for (let y = 0; y <= yMax + yStep / 2; y += yStep) {
    parts.push(
      `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${toY(y)}" y2="${toY(y)}" stroke="#e5e5e5"/>`,
      `<text x="${MARGIN.left - 8}" y="${toY(y)}" text-anchor="end" dominant-baseline="middle">${label(y)}</text>`,
    );
  }
  for (let x = 0; x <= xMax + xStep / 2; x += xStep) {
    parts.push(
      `<line x1="${toX(x)}" x2="${toX(x)}" y1="${toY(0)}" y2="${Number(toY(0)) + 5}" stroke="#333"/>`,
      `<text x="${toX(x)}" y="${Number(toY(0)) + 20}" text-anchor="middle">${label(x)}</text>`,
    );
  }
  parts.push(
    `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${toY(0)}" y2="${toY(0)}" stroke="#333"/>`,
    `<line x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${toY(0)}" stroke="#333"/>`,
    `<text x="${MARGIN.left + plotWidth / 2}" y="${HEIGHT - 14}" text-anchor="middle">${escapeXml(chart.xLabel)}</text>`,
    `<text transform="translate(18 ${MARGIN.top + plotHeight / 2}) rotate(-90)" text-anchor="middle">${escapeXml(chart.yLabel)}</text>`,
  );
  chart.series.forEach((series, index) => {
    const coordinates = series.points.map(([x, y]) => `${toX(x)},${toY(y)}`);
    parts.push(
      `<polyline fill="none" stroke="${series.color}" stroke-width="2" points="${coordinates.join(" ")}"/>`,
      ...coordinates.map((point) => {
        const [cx, cy] = point.split(",");
        return `<circle cx="${cx}" cy="${cy}" r="3" fill="${series.color}"/>`;
      }),
      `<rect x="${MARGIN.left + 12}" y="${MARGIN.top + 8 + index * 18}" width="14" height="3" fill="${series.color}"/>`,
      `<text x="${MARGIN.left + 32}" y="${MARGIN.top + 10 + index * 18}" dominant-baseline="middle">${escapeXml(series.name)}</text>`,
    );
  });
  parts.push("</svg>", "");
  return parts.join("\n");
}
