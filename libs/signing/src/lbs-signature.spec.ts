import { signLbs, verifyLbs } from './lbs-signature';
import { lbsPlaintext, lbsSignedNames } from './portable';

// docs/contract.md §3 test vector.
const SECRET = 'demo-secret-0123456789abcdef';
const NAMES = lbsSignedNames(['city', 'address']);
const VALUES = { city: '北京市', address: '长安街1号', merId: 'M001' };
const PLAINTEXT = 'addressQuery:长安街1号::北京市:M001:';
const SIGNATURE = 'b6be88fe19429c9765ce53ca573a065a11accfdea5a5324226a2f9316da406c2';

describe('location signature (docs/contract.md §3)', () => {
  it('orders the addressQuery parameters as the spec says', () => {
    expect(NAMES).toEqual(['address', 'busdepId', 'city', 'merId', 'productId']);
  });

  it('builds the vector plaintext', () => {
    expect(lbsPlaintext('addressQuery', NAMES, VALUES)).toBe(PLAINTEXT);
  });

  it('signs and verifies the vector', () => {
    expect(signLbs(SECRET, 'addressQuery', NAMES, VALUES)).toBe(SIGNATURE);
    expect(verifyLbs(SECRET, 'addressQuery', NAMES, VALUES, SIGNATURE)).toBe(true);
    expect(verifyLbs(SECRET, 'addressQuery', NAMES, VALUES, SIGNATURE.toUpperCase())).toBe(true);
  });

  it('refuses a one-byte change anywhere', () => {
    expect(verifyLbs(SECRET, 'addressQuery', NAMES, { ...VALUES, merId: 'M002' }, SIGNATURE)).toBe(false);
    expect(verifyLbs(SECRET, 'lbsQuery', NAMES, VALUES, SIGNATURE)).toBe(false);
    expect(verifyLbs(SECRET, 'addressQuery', NAMES, VALUES, SIGNATURE.replace(/2$/, '3'))).toBe(false);
    expect(verifyLbs(`${SECRET}x`, 'addressQuery', NAMES, VALUES, SIGNATURE)).toBe(false);
  });

  it('orders the other operations alphabetically with the business parameters', () => {
    expect(lbsSignedNames(['longitude', 'latitude'])).toEqual(['busdepId', 'latitude', 'longitude', 'merId', 'productId']);
    expect(lbsSignedNames(['mcc', 'mnc', 'lac', 'cellid'])).toEqual(['busdepId', 'cellid', 'lac', 'mcc', 'merId', 'mnc', 'productId']);
  });
});
