// Bench only (`pnpm bench:audit-writes`): preloaded with `node --require` into the compiled
// account service to give the "without" side of the write benchmark: the same service whose
// user writes carry no audit event and store personal data as sent. The compiled modules call
// these functions through their exports object, so replacing the exports is enough; nothing of
// the service's own code knows this file.
const { join } = require('node:path');

const dist = join(__dirname, '../../apps/account/dist');
const events = require(join(dist, 'audit/audit-events.repository.js'));
const { PiiCipher } = require(join(dist, 'pii/pii-cipher.js'));

// The event's CTEs become one that writes nothing and takes no parameter.
events.auditEventCte = () => '"audit_event" AS (SELECT 1)';
events.auditEventParams = () => [];
// Personal data stored and read as sent.
PiiCipher.prototype.encrypt = function encrypt(_app, _login, _field, value) {
  return value;
};
PiiCipher.prototype.decrypt = function decrypt(_app, _login, _field, stored) {
  return stored;
};
