import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { history, type Series } from '../live';
import { useObservable } from '../observable';

interface Props {
  title: string;
  /** Columns of the history after time, and how each is drawn. */
  columns: number[];
  labels: string[];
  colors: string[];
  unit: string;
}

const HEIGHT = 180;

/** A live uPlot chart of some columns of the metrics history; updated in place once a second. */
export function Chart({ title, columns, labels, colors, unit }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const series = useObservable(history);
  const data = (s: Series): uPlot.AlignedData => [s[0], ...columns.map((c) => s[c])] as uPlot.AlignedData;

  useEffect(() => {
    const el = box.current;
    if (el === null) return undefined;
    const options: uPlot.Options = {
      width: el.clientWidth,
      height: HEIGHT,
      legend: { show: true },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true } },
      axes: [{ stroke: '#8a94a6' }, { stroke: '#8a94a6', values: (_u, ticks) => ticks.map((v) => `${v}${unit}`) }],
      series: [{}, ...labels.map((label, i) => ({ label, stroke: colors[i], width: 1.5, spanGaps: false }))],
    };
    plot.current = new uPlot(options, data(history.value), el);
    const observer = new ResizeObserver(() => plot.current?.setSize({ width: el.clientWidth, height: HEIGHT }));
    observer.observe(el);
    return () => {
      observer.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
  }, []);

  useEffect(() => plot.current?.setData(data(series)), [series, series[0].length, series[0][series[0].length - 1]]);

  return (
    <section class="card chart">
      <h3>{title}</h3>
      <div ref={box} />
    </section>
  );
}
