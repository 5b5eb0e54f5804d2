/**
 * Draws an error bar (webview/model/errorBars.ts) as a small inline SVG: the axis, the 95% interval
 * as a line with end caps, the mean as a dot, zero as a reference tick for a delta. An interval too
 * wide to mean anything is dashed and faded, and its tooltip says why. The tooltip is the `title` of
 * a span around the SVG, not an SVG <title>, so the figure's text (a copy, a screen reader's cell text)
 * is not doubled; the SVG's accessible name is the same text. Built with createElementNS and
 * attributes only (no markup parsed, no style attribute; colours from CSS).
 */
import { along, type IntervalBar } from '../model/errorBars';
import { el } from './dom';

const SVG = 'http://www.w3.org/2000/svg';
export const BAR_WIDTH = 120;
const HEIGHT = 14;
const PAD = 4;
const MID = HEIGHT / 2;

function svgEl(tag: string, attrs: { readonly [name: string]: string | number }): SVGElement {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  return element as SVGElement;
}

/** The x of a value along the bar. */
function x(bar: IntervalBar, value: number): number {
  return PAD + along(bar, value) * (BAR_WIDTH - 2 * PAD);
}

export function errorBarSvg(bar: IntervalBar, className = ''): HTMLElement {
  const svg = svgEl('svg', {
    class: `error-bar${bar.tooWide ? ' too-wide' : ''}${className === '' ? '' : ` ${className}`}`,
    width: BAR_WIDTH,
    height: HEIGHT,
    viewBox: `0 0 ${BAR_WIDTH} ${HEIGHT}`,
    role: 'img',
    'aria-label': bar.label,
  });
  svg.append(svgEl('line', { class: 'axis', x1: PAD, y1: MID, x2: BAR_WIDTH - PAD, y2: MID }));
  if (bar.zero !== undefined) {
    const zx = x(bar, bar.zero);
    svg.append(svgEl('line', { class: 'zero', x1: zx, y1: 1, x2: zx, y2: HEIGHT - 1 }));
  }
  const lowX = x(bar, bar.low);
  const highX = x(bar, bar.high);
  const dash = bar.tooWide ? { 'stroke-dasharray': '3 2' } : {};
  svg.append(svgEl('line', { class: 'interval', x1: lowX, y1: MID, x2: highX, y2: MID, ...dash }));
  for (const cap of [lowX, highX])
    svg.append(svgEl('line', { class: 'interval cap', x1: cap, y1: MID - 4, x2: cap, y2: MID + 4 }));
  svg.append(svgEl('circle', { class: 'mean', cx: x(bar, bar.mean), cy: MID, r: 3 }));
  return el('span', { className: 'error-bar-wrap', attrs: { title: bar.label } }, svg);
}
