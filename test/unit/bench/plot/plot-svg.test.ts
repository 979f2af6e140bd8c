import { describe, expect, it } from 'vitest';
import { panelsOf, plotSvg, rowsOf } from '../../../../bench/plot/plot-svg.js';

const rows = [
  { peer: 'quarry (MySQL protocol)', docs: 100000, 'load docs/s': 3094, 'QPS 1 client': 161, 'p50 ms': 2.1, 'p99 ms': 56.8, 'QPS 8 clients': 181, 'p99 ms (8)': 376 },
  { peer: 'Sphinx 2.2.11 (SphinxQL)', docs: 100000, 'load docs/s': 6145, 'QPS 1 client': 1140, 'p50 ms': 0.58, 'p99 ms': 7.5, 'QPS 8 clients': 1057, 'p99 ms (8)': 59.7 },
  { peer: 'ratio quarry (MySQL protocol)/Sphinx', docs: 100000, 'load docs/s': 0.5, 'QPS 1 client': 0.14 },
];

describe('results plots', () => {
  it('sorts columns into query throughput, document throughput and latency panels', () => {
    expect(panelsOf(rows)).toEqual([
      { title: 'Queries per second (higher is better)', columns: ['QPS 1 client', 'QPS 8 clients'] },
      { title: 'Documents per second (higher is better)', columns: ['load docs/s'] },
      { title: 'Latency percentiles, ms (lower is better)', columns: ['p50 ms', 'p99 ms', 'p99 ms (8)'] },
    ]);
  });

  it('draws one bar per peer and column, ratio rows left out, values labelled', () => {
    const svg = plotSvg('side-by-side', rows)!;
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.match(/<rect x="250" y="\d+" width/g)).toHaveLength(2 * 6);
    expect(svg).toContain('<title>Sphinx 2.2.11 (SphinxQL), QPS 1 client: 1,140</title>');
    expect(svg).not.toContain('ratio');
    expect(svg).toContain('(log scale)'); // latencies from 0.58 to 376 ms
    // the bars' widths follow the values: Sphinx's 1,140 QPS is the widest QPS bar
    const width = (label: string) => Number(new RegExp(`width="([\\d.]+)" height="\\d+" fill="[^"]+"><title>${label.replace(/[()]/g, '\\$&')}`).exec(svg)![1]);
    expect(width('Sphinx 2.2.11 (SphinxQL), QPS 1 client: 1,140')).toBeGreaterThan(width('quarry (MySQL protocol), QPS 1 client: 161'));
  });

  it('finds the table in the results files\' shapes, and draws nothing without figures to plot', () => {
    expect(rowsOf({ classes: [{ class: 'a', 'x docs/s': 1 }] })).toEqual([{ class: 'a', 'x docs/s': 1 }]);
    expect(rowsOf([{ corpus: 'c', queries: [{ name: 'q', qps: 5 }] }])).toEqual([{ corpus: 'c', name: 'q', qps: 5 }]);
    expect(rowsOf({ note: 'x' })).toBeUndefined();
    expect(plotSvg('t', [{ peer: 'a', docs: 5 }])).toBeUndefined();
  });
});
