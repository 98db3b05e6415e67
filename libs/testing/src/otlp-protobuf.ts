/*
 * Test support: reads an OTLP/HTTP protobuf trace export (`ExportTraceServiceRequest`) into the
 * shape of its JSON encoding, so that `OtlpReceiver` keeps spans sent either way alike. Only
 * the fields the suites look at are read (ids, names, kinds, attributes, status, the resource's
 * attributes and the scope's name); the rest is skipped by its wire type.
 */

interface JsonValue {
  stringValue?: string;
  intValue?: number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface JsonKeyValue {
  key: string;
  value?: JsonValue;
}
export interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: JsonKeyValue[];
  status?: { code?: number };
}
export interface JsonTraces {
  resourceSpans: { resource: { attributes: JsonKeyValue[] }; scopeSpans: { scope: { name: string }; spans: JsonSpan[] }[] }[];
}

/** A protobuf message's fields, in order: the field number, its wire type and its value. */
type Field = { field: number; wire: number; varint?: number; bytes?: Buffer };

function fieldsOf(bytes: Buffer): Field[] {
  const fields: Field[] = [];
  let at = 0;
  const varint = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (at >= bytes.length) throw new Error('protobuf: truncated varint');
      const b = bytes[at++]!;
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 128;
    }
  };
  while (at < bytes.length) {
    const key = varint();
    const field = Math.floor(key / 8);
    const wire = key % 8;
    if (wire === 0) fields.push({ field, wire, varint: varint() });
    else if (wire === 1 || wire === 5) {
      const size = wire === 1 ? 8 : 4;
      fields.push({ field, wire, bytes: bytes.subarray(at, at + size) });
      at += size;
    } else if (wire === 2) {
      const length = varint();
      if (at + length > bytes.length) throw new Error('protobuf: truncated field');
      fields.push({ field, wire, bytes: bytes.subarray(at, at + length) });
      at += length;
    } else throw new Error(`protobuf: wire type ${wire} of field ${field} is not read here`);
  }
  return fields;
}

const each = (fields: Field[], n: number): Buffer[] => fields.filter((f) => f.field === n && f.bytes).map((f) => f.bytes!);
const text = (fields: Field[], n: number): string | undefined => each(fields, n)[0]?.toString('utf8');
const number = (fields: Field[], n: number): number | undefined => fields.find((f) => f.field === n && f.wire === 0)?.varint;

function anyValue(bytes: Buffer): JsonValue {
  const fields = fieldsOf(bytes);
  const field = fields[0];
  if (!field) return {};
  if (field.field === 1) return { stringValue: field.bytes!.toString('utf8') };
  if (field.field === 2) return { boolValue: field.varint === 1 };
  // int64: values past 2^63 are negative numbers in two's complement
  if (field.field === 3) return { intValue: field.varint! >= 2 ** 63 ? field.varint! - 2 ** 64 : field.varint! };
  if (field.field === 4) return { doubleValue: field.bytes!.readDoubleLE(0) };
  return {};
}

function attributes(fields: Field[], n: number): JsonKeyValue[] {
  return each(fields, n).map((kv) => {
    const f = fieldsOf(kv);
    const value = each(f, 2)[0];
    return { key: text(f, 1) ?? '', value: value ? anyValue(value) : undefined };
  });
}

function span(bytes: Buffer): JsonSpan {
  const f = fieldsOf(bytes);
  const status = each(f, 15)[0];
  return {
    traceId: each(f, 1)[0]?.toString('hex') ?? '',
    spanId: each(f, 2)[0]?.toString('hex') ?? '',
    parentSpanId: each(f, 4)[0]?.toString('hex') ?? '',
    name: text(f, 5) ?? '',
    kind: number(f, 6) ?? 0,
    attributes: attributes(f, 9),
    status: status ? { code: number(fieldsOf(status), 3) ?? 0 } : undefined,
  };
}

/** `ExportTraceServiceRequest` bytes as its JSON encoding's shape (ids in hex). */
export function decodeOtlpTraces(bytes: Buffer): JsonTraces {
  return {
    resourceSpans: each(fieldsOf(bytes), 1).map((rs) => {
      const r = fieldsOf(rs);
      const resource = each(r, 1)[0];
      return {
        resource: { attributes: resource ? attributes(fieldsOf(resource), 1) : [] },
        scopeSpans: each(r, 2).map((ss) => {
          const s = fieldsOf(ss);
          const scope = each(s, 1)[0];
          return { scope: { name: scope ? (text(fieldsOf(scope), 1) ?? '') : '' }, spans: each(s, 2).map(span) };
        }),
      };
    }),
  };
}
