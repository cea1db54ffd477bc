// Small line charts as inline SVG: no library, no network. Each figure gets a caption, a legend
// and an aria-label that states the totals, so the chart is not the only way to read the numbers.
const NS = 'http://www.w3.org/2000/svg';
const W = 320,
  H = 140,
  PAD = { l: 28, r: 8, t: 8, b: 18 };

function el(name, attrs = {}, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

/**
 * Draws `series` ([{label, color, values: number[]}]) into `figure`, replacing what was there.
 * Points are evenly spaced over the last hour; the y axis starts at 0.
 */
export function lineChart(figure, title, series) {
  figure.replaceChildren();
  const caption = document.createElement('figcaption');
  caption.textContent = title;
  figure.appendChild(caption);

  const n = Math.max(1, ...series.map((s) => s.values.length));
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const x = (i) => PAD.l + (n === 1 ? 0 : (i * (W - PAD.l - PAD.r)) / (n - 1));
  const y = (v) => H - PAD.b - (v * (H - PAD.t - PAD.b)) / max;

  const summary = series
    .map((s) => `${s.label}: ${s.values.reduce((a, b) => a + b, 0)} in the hour, ${s.values.at(-1) ?? 0} in the last minute`)
    .join('; ');
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-label': `${title}. ${summary}` });
  el('title', {}, svg).textContent = `${title}. ${summary}`;
  el('line', { x1: PAD.l, y1: H - PAD.b, x2: W - PAD.r, y2: H - PAD.b, class: 'axis' }, svg);
  el('line', { x1: PAD.l, y1: PAD.t, x2: PAD.l, y2: H - PAD.b, class: 'axis' }, svg);
  el('line', { x1: PAD.l, y1: y(max), x2: W - PAD.r, y2: y(max), class: 'axis', 'stroke-dasharray': '2 3' }, svg);
  el('text', { x: PAD.l - 4, y: y(max) + 3, 'text-anchor': 'end' }, svg).textContent = String(max);
  el('text', { x: PAD.l - 4, y: H - PAD.b + 3, 'text-anchor': 'end' }, svg).textContent = '0';
  el('text', { x: PAD.l, y: H - 4 }, svg).textContent = '−60 min';
  el('text', { x: W - PAD.r, y: H - 4, 'text-anchor': 'end' }, svg).textContent = 'now';
  for (const s of series) {
    const points = s.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    el('polyline', { points, stroke: s.color, 'data-series': s.label }, svg);
  }
  figure.appendChild(svg);

  const legend = document.createElement('ul');
  legend.className = 'legend';
  for (const s of series) {
    const li = document.createElement('li');
    const swatch = document.createElement('i');
    swatch.style.background = s.color;
    li.append(swatch, `${s.label} (${s.values.reduce((a, b) => a + b, 0)})`);
    legend.appendChild(li);
  }
  figure.appendChild(legend);
}
