/**
 * The SQL the account service ships is in the diff: the committed `queries/*.sql` next to each
 * repository are exactly the statements its methods send for their declared cases. After a
 * change of a statement, `pnpm sql` rewrites them (this spec with GENERATE_SQL=write).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type MediumDatabase, mediumDatabase } from './medium-database';
import { type Recording, recordSql } from './sql-recorder';

const ROOT = path.resolve(__dirname, '../../../..');
const WRITE = process.env.GENERATE_SQL === 'write';

let db: MediumDatabase;
let recording: Recording;

beforeAll(async () => {
  db = await mediumDatabase();
  recording = await recordSql(db);
});
afterAll(() => db?.close());

describe('recorded SQL', () => {
  it('every method of every repository declares its cases (or why it has none)', () => {
    expect(recording.unrecorded).toEqual([]);
    expect(recording.files.map((f) => f.file)).toEqual(
      expect.arrayContaining([
        'apps/account/src/users/queries/users.repository.sql',
        'apps/account/src/audit/queries/audit-events.repository.sql',
      ]),
    );
  });

  it('the committed files hold the statements the code sends (else run `pnpm sql`)', () => {
    let statements = 0;
    for (const { file, text } of recording.files) {
      statements += text.split('\n').filter((l) => l.endsWith(';')).length;
      const full = path.join(ROOT, file);
      if (WRITE) {
        mkdirSync(path.dirname(full), { recursive: true });
        writeFileSync(full, text);
        continue;
      }
      let committed = '';
      try {
        committed = readFileSync(full, 'utf8');
      } catch {
        // missing: compared as empty
      }
      expect({ file, text: committed }).toEqual({ file, text });
    }
    console.log(`recorded SQL: ${recording.files.length} files, ${statements} statements${WRITE ? ' written' : ' checked'}`);
  });
});
