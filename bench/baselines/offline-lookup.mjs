// Baseline of the lbsQuery miss path: node:http + the same offline index lookup (the built
// offline geocoder of apps/location/dist, its assets loaded once) and the same WGS-84 to
// GCJ-02 conversion, answering the address fields as JSON.
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { root } from '../lib/common.mjs';
import { queryOf, sendJson, serve } from './serve.mjs';

const require = createRequire(import.meta.url);
const dist = join(root, 'apps/location/dist');
const { createOfflineGeocoder } = require(join(dist, 'geocoder/offline/index.js'));
const { convertDatum } = require(join(dist, 'geo/coord-transform.js'));

const geocoder = await createOfflineGeocoder();

serve((req, res) => {
  const q = queryOf(req);
  const lon = Number(q.get('param.longitude'));
  const lat = Number(q.get('param.latitude'));
  if (!Number.isFinite(lon) || !Number.isFinite(lat)) return sendJson(res, 400, { code: '099' });
  const [x, y] = convertDatum(lon, lat, 'wgs84', geocoder.datum, geocoder.mainland.contains);
  const place = geocoder.reverseSync(x, y);
  if (!place) return sendJson(res, 404, { code: '099', lbsStat: '0' });
  sendJson(res, 200, {
    code: '000',
    lbsStat: '1',
    provinceName: place.provinceName ?? null,
    provinceCode: place.provinceCode ?? null,
    areaName: place.areaName ?? null,
    areaCode: place.areaCode ?? null,
    standardCode: place.standardCode ?? null,
    country: place.country ?? null,
    address: place.address ?? null,
  });
});
