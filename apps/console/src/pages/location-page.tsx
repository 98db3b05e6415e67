import { type FormEvent, useState } from 'react';
import type { LbsResult } from '@geoaccount/client';
import { Field, Result, Section, guard } from '../components';
import { ChinaMap, type MapPoint } from '../map/china-map';
import { type Outcome, type PageProps, outcomeOf } from '../session';

/** What one location call answered, field by field, with where the answer came from. */
function Answer({ answer }: { answer?: LbsResult }) {
  if (!answer || answer.code !== '000') return null;
  const source =
    answer.lbsStat === '2' ? 'from the cache (lbsStat 2)' : answer.lbsStat === '1' ? 'computed (lbsStat 1)' : `lbsStat ${answer.lbsStat}`;
  return (
    <div aria-live="polite">
      <p>
        Answer <strong>{source}</strong>
      </p>
      <dl className="answer">
        {Object.entries(answer)
          .filter(([k]) => !['code', 'resultDesc', 'lbsStat'].includes(k))
          .map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{String(v ?? '')}</dd>
            </div>
          ))}
      </dl>
    </div>
  );
}

/** Location: a map to click (lbsQuery), coordinates, an address (addressQuery) and a base station. */
export function LocationPage({ session, unauthorized }: PageProps) {
  const call = guard(unauthorized);
  const [coords, setCoords] = useState({ longitude: '116.397', latitude: '39.909' });
  const [address, setAddress] = useState({ city: '', address: '' });
  const [cell, setCell] = useState({ mcc: '460', mnc: '0', lac: '', cellid: '' });
  const [answer, setAnswer] = useState<LbsResult>();
  const [outcome, setOutcome] = useState<Outcome>();
  const [marker, setMarker] = useState<MapPoint>();

  const show = (res: Awaited<ReturnType<typeof session.lbs.lbsQuery>> | Awaited<ReturnType<typeof session.lbs.addressQuery>>) => {
    setOutcome(outcomeOf(res));
    setAnswer(res.body as LbsResult);
    return res.body as LbsResult;
  };
  const reverse = async (longitude: string, latitude: string) => {
    setCoords({ longitude, latitude });
    setMarker({ longitude: Number(longitude), latitude: Number(latitude) });
    show(await call(session.lbs.lbsQuery({ longitude, latitude })));
  };
  const lookUpAddress = async (e: FormEvent) => {
    e.preventDefault();
    const got = show(await call(session.lbs.addressQuery(address)));
    if (got.code === '000' && got.longitude && got.latitude)
      setMarker({ longitude: Number(got.longitude), latitude: Number(got.latitude) });
  };
  const lookUpCell = async (e: FormEvent) => {
    e.preventDefault();
    const got = show(await call(session.lbs.baseStationQuery(cell)));
    if (got.code === '000' && got.longitude && got.latitude)
      setMarker({ longitude: Number(got.longitude), latitude: Number(got.latitude) });
  };

  return (
    <>
      <h2>Location</h2>
      <Section title="Map">
        <p>Click a place: the console asks lbsQuery for its county. Click it again: the answer comes from the cache.</p>
        <ChinaMap marker={marker} onPick={(p) => void reverse(p.longitude.toFixed(5), p.latitude.toFixed(5))} />
      </Section>
      <Section title="Answer">
        <Result outcome={outcome} />
        <Answer answer={answer} />
      </Section>
      <Section title="Coordinates (lbsQuery)">
        <form
          aria-label="lbsQuery"
          onSubmit={(e) => {
            e.preventDefault();
            void reverse(coords.longitude, coords.latitude);
          }}
        >
          <Field
            name="longitude"
            value={coords.longitude}
            onChange={(v) => setCoords({ ...coords, longitude: v })}
            hint="-180 to 180, decimal degrees"
          />
          <Field
            name="latitude"
            value={coords.latitude}
            onChange={(v) => setCoords({ ...coords, latitude: v })}
            hint="-90 to 90, decimal degrees"
          />
          <button type="submit">Look up</button>
        </form>
      </Section>
      <Section title="Address (addressQuery)">
        <form aria-label="addressQuery" onSubmit={(e) => void lookUpAddress(e)}>
          <Field name="city" value={address.city} onChange={(v) => setAddress({ ...address, city: v })} />
          <Field name="address" value={address.address} onChange={(v) => setAddress({ ...address, address: v })} required />
          <button type="submit">Look up</button>
        </form>
      </Section>
      <Section title="Base station (baseStationQuery)">
        <form aria-label="baseStationQuery" onSubmit={(e) => void lookUpCell(e)}>
          <Field name="mcc" value={cell.mcc} onChange={(v) => setCell({ ...cell, mcc: v })} />
          <Field name="mnc" value={cell.mnc} onChange={(v) => setCell({ ...cell, mnc: v })} />
          <Field name="lac" value={cell.lac} onChange={(v) => setCell({ ...cell, lac: v })} />
          <Field name="cellid" value={cell.cellid} onChange={(v) => setCell({ ...cell, cellid: v })} />
          <button type="submit">Look up</button>
        </form>
      </Section>
    </>
  );
}
