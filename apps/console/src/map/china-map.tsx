import { type MouseEvent, useEffect, useRef, useState } from 'react';

export interface MapPoint {
  longitude: number;
  latitude: number;
}

/** `public/outlines.json`, made at build time from the location service's county polygons. */
interface Outlines {
  projection: { west: number; north: number; kx: number; unit: number };
  width: number;
  height: number;
  counties: { code: string; name: string; province: string; path: string }[];
}

const FILLS = ['#e8eef7', '#eef5e6', '#f7efe3', '#f1e8f5', '#e6f4f3', '#f6f3e0'];

/** China by county, drawn offline; a click answers the point under it. */
export function ChinaMap(props: { marker?: MapPoint; onPick: (p: MapPoint) => void }) {
  const [outlines, setOutlines] = useState<Outlines>();
  const svg = useRef<SVGSVGElement>(null);

  useEffect(() => {
    void fetch('/console/outlines.json')
      .then((r) => r.json())
      .then((o: Outlines) => setOutlines(o));
  }, []);

  if (!outlines) return <p>Loading the map…</p>;
  const { west, north, kx, unit } = outlines.projection;
  const toScreen = (p: MapPoint) => [(p.longitude - west) * kx * unit, (north - p.latitude) * unit] as const;
  const provinceIndex = new Map<string, number>();

  const click = (e: MouseEvent<SVGSVGElement>) => {
    const el = svg.current;
    const ctm = el?.getScreenCTM();
    if (!el || !ctm) return;
    const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
    props.onPick({ longitude: pt.x / (kx * unit) + west, latitude: north - pt.y / unit });
  };

  const marker = props.marker ? toScreen(props.marker) : undefined;
  return (
    <svg
      ref={svg}
      className="map"
      viewBox={`0 0 ${outlines.width} ${outlines.height}`}
      role="img"
      aria-label="Map of China by county. Click a place to look it up; the coordinate form below does the same from the keyboard."
      onClick={click}
    >
      {outlines.counties.map((c) => {
        if (!provinceIndex.has(c.province)) provinceIndex.set(c.province, provinceIndex.size);
        return (
          <path key={c.code} d={c.path} fill={FILLS[provinceIndex.get(c.province)! % FILLS.length]} stroke="#9aa5b1" strokeWidth={0.3}>
            <title>{c.name}</title>
          </path>
        );
      })}
      {marker && <circle cx={marker[0]} cy={marker[1]} r={5} fill="#c0392b" stroke="#fff" strokeWidth={1.5} data-testid="marker" />}
    </svg>
  );
}
