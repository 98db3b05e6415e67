import express from 'express';
import request from 'supertest';
import { InvalidParameterException } from '@geoaccount/api';
import { checkParams, paramTable } from './param-rules';
import { parseQueryOnce } from './query';
import { TextParamPipe } from './text-param';

const refusal = (fn: () => unknown): [string, string] | undefined => {
  try {
    fn();
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidParameterException);
    const e = err as InvalidParameterException;
    return [e.field, e.reason];
  }
};

describe('parseQueryOnce', () => {
  it('keeps the first parse: every later read of req.query is the same object', async () => {
    const app = express();
    app.set('query parser', 'simple');
    app.get('/without', (req, res) => res.json({ same: req.query === req.query }));
    app.get('/with', parseQueryOnce, (req, res) => res.json({ same: req.query === req.query, query: req.query }));
    // Express 5 parses the URL again on every read.
    expect((await request(app).get('/without?a=1')).body).toEqual({ same: false });
    expect((await request(app).get('/with?a=1&b=x&b=y')).body).toEqual({ same: true, query: { a: '1', b: ['x', 'y'] } });
  });
});

describe('paramTable and checkParams without service settings', () => {
  const table = paramTable({
    name: { required: true, max: 4, description: 'a name' },
    size: { required: false, max: 3, pattern: /^\d+$/, limit: 100, description: 'a size' },
  });

  it('refuses what the table does not name, and keeps ":" when no character is forbidden', () => {
    expect(refusal(() => checkParams(table, { name: 'a', signature: 'x' }))).toEqual(['signature', 'unknown parameter']);
    expect(checkParams(table, { name: 'a:b' })).toEqual({ name: 'a:b' });
  });

  it('judges names by own properties: members of every object are unknown parameters', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const query = Object.assign(Object.create(null) as Record<string, unknown>, { name: 'a' });
      Object.defineProperty(query, name, { value: 'x', enumerable: true });
      expect(refusal(() => checkParams(table, query))).toEqual([name, 'unknown parameter']);
    }
  });

  it('passes over the parameters another step checks, and refuses the forbidden character', () => {
    const signed = paramTable(table.rules, { passThrough: ['signature'], forbiddenChar: '|' });
    expect(checkParams(signed, { name: 'a', signature: 'x' })).toEqual({ name: 'a' });
    expect(refusal(() => checkParams(signed, { name: 'a|b' }))).toEqual(['name', "'|' in"]);
    expect(() => paramTable(table.rules, { forbiddenChar: '::' })).toThrow(/one character/);
  });

  it('checks pattern and limit of a number', () => {
    expect(checkParams(table, { name: 'a', size: '100' })).toEqual({ name: 'a', size: '100' });
    expect(refusal(() => checkParams(table, { name: 'a', size: '101' }))).toEqual(['size', 'invalid']);
    expect(refusal(() => checkParams(table, { name: 'a', size: '1a' }))).toEqual(['size', 'invalid']);
    expect(refusal(() => checkParams(table, { name: 'abcde' }))).toEqual(['name', 'too long']);
  });
});

describe('TextParamPipe', () => {
  const pipe = new TextParamPipe((value) => (/^[a-z]+$/.test(value) ? undefined : 'invalid'));
  const meta = { type: 'param' as const, data: 'thing_id' };

  it('returns a text the check accepts', () => {
    expect(pipe.transform('abc', meta)).toBe('abc');
  });

  it('refuses absent, empty, repeated and rejected texts, naming the parameter', () => {
    expect(refusal(() => pipe.transform(undefined, meta))).toEqual(['thing_id', 'missing']);
    expect(refusal(() => pipe.transform('', meta))).toEqual(['thing_id', 'missing']);
    expect(refusal(() => pipe.transform(['a', 'b'], meta))).toEqual(['thing_id', 'invalid']);
    expect(refusal(() => pipe.transform('ABC', meta))).toEqual(['thing_id', 'invalid']);
    expect(refusal(() => pipe.transform('', { type: 'param' }))).toEqual(['id', 'missing']);
  });
});
