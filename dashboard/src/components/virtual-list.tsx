import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

interface Props {
  count: number;
  rowHeight: number;
  /** One row; called only for the rows in view (plus a few either side). */
  row(index: number): ComponentChildren;
  /** Rows added at the top since the last render: a reader scrolled down keeps their place. */
  addedAtTop?: number;
}

const OVERSCAN = 8;

/** A scrolling list that renders only the rows in view, so 10,000 rows cost what 40 do. */
export function VirtualList({ count, rowHeight, row, addedAtTop = 0 }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);

  useEffect(() => {
    const el = box.current;
    if (el === null) return undefined;
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useLayoutEffect(() => {
    const el = box.current;
    if (el !== null && addedAtTop > 0 && el.scrollTop > 0) el.scrollTop += addedAtTop * rowHeight;
  }, [addedAtTop, rowHeight]);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(count, Math.ceil((scrollTop + height) / rowHeight) + OVERSCAN);
  const rows = [];
  for (let i = first; i < last; i++) {
    rows.push(
      <div key={i} class="vrow" style={{ top: `${i * rowHeight}px`, height: `${rowHeight}px` }}>
        {row(i)}
      </div>,
    );
  }
  return (
    <div class="vlist" ref={box} onScroll={(e) => setScrollTop((e.currentTarget as HTMLDivElement).scrollTop)}>
      <div class="vspace" style={{ height: `${count * rowHeight}px` }}>
        {rows}
      </div>
    </div>
  );
}
