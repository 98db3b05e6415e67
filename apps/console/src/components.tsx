import { type ReactNode, useId, useState } from 'react';
import type { ApiResponse } from '@geoaccount/client';
import { type Outcome, outcomeOf } from './session';

/** A text field labelled with its API field name; `hint` states the spec's rule next to it. */
export function Field(props: {
  name: string;
  value: string;
  onChange: (v: string) => void;
  maxLength?: number;
  hint?: string;
  required?: boolean;
  type?: string;
  disabled?: boolean;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const hint = props.hint ?? (props.maxLength ? `at most ${props.maxLength} characters` : undefined);
  return (
    <div className="field">
      <label htmlFor={id}>{props.name}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        maxLength={props.maxLength}
        required={props.required}
        disabled={props.disabled}
        aria-describedby={hint ? hintId : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {hint && (
        <small id={hintId}>
          {props.required ? 'required; ' : ''}
          {hint}
        </small>
      )}
    </div>
  );
}

/** A choice among the spec's enumeration; `''` is "not set". */
export function Choice(props: {
  name: string;
  value: string;
  onChange: (v: string) => void;
  options: [string, string][];
  allowEmpty?: boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.name}</label>
      <select id={id} name={props.name} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.allowEmpty !== false && <option value="">(not set)</option>}
        {props.options.map(([value, text]) => (
          <option key={value} value={value}>
            {value} — {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The service's answer to the last action: its code and message, as a status or an alert. */
export function Result({ outcome }: { outcome?: Outcome }) {
  if (!outcome) return null;
  const ok = outcome.status < 400;
  return (
    <p role={ok ? 'status' : 'alert'} className={ok ? 'ok' : 'refused'}>
      <strong>{ok ? 'Done' : 'Refused'}</strong> HTTP {outcome.status}, <code>{outcome.code}</code> {outcome.message}
    </p>
  );
}

export function Section(props: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

/** A table whose column heads are the API field names. */
export function DataTable<T extends object>(props: {
  caption: string;
  columns: (keyof T & string)[];
  rows: T[];
  rowKey: (row: T) => string;
  actions?: (row: T) => ReactNode;
}) {
  return (
    <table>
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          {props.columns.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
          {props.actions && <th scope="col">actions</th>}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => (
          <tr key={props.rowKey(row)}>
            {props.columns.map((c) => (
              <td key={c}>{cell((row as Record<string, unknown>)[c])}</td>
            ))}
            {props.actions && <td>{props.actions(row)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The non-empty fields of a form, as the API takes them. */
export function filled(fields: Record<string, string>, keepEmpty: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== '' || keepEmpty.includes(k)) out[k] = v;
  return out;
}

/** Runs a call; a 401 sends the operator back to Connect with the service's message. */
export function guard(unauthorized: (message: string) => void) {
  return async <T, B>(call: Promise<ApiResponse<T, B>>): Promise<ApiResponse<T, B>> => {
    const res = await call;
    if (res.status === 401) unauthorized(outcomeOf(res as unknown as ApiResponse<unknown>).message);
    return res;
  };
}

/** A search form: its fields, then the `Search` button; submitting runs `onSearch`. */
export function SearchForm(props: { label: string; onSearch: () => void; children: ReactNode }) {
  return (
    <form
      aria-label={props.label}
      onSubmit={(e) => {
        e.preventDefault();
        props.onSearch();
      }}
    >
      {props.children}
      <button type="submit">Search</button>
    </form>
  );
}

/** The buttons of a create-or-modify form: `Create` or `Save`, and a way back to a new record. */
export function EditorButtons(props: { editing: boolean; newLabel: string; onNew: () => void }) {
  return (
    <>
      <button type="submit">{props.editing ? 'Save' : 'Create'}</button>
      {props.editing && (
        <button type="button" onClick={props.onNew}>
          {props.newLabel}
        </button>
      )}
    </>
  );
}

/** The state of a create-or-modify form: its values, and the id being modified (none: a new record). */
export function useEditor<F extends Record<string, string>, E = string>(empty: F) {
  const [form, setForm] = useState<F>(empty);
  const [editing, setEditing] = useState<E>();
  return {
    form,
    setForm,
    editing,
    /** A change handler for one field. */
    set: (k: keyof F) => (v: string) => setForm({ ...form, [k]: v }),
    edit: (record: E, values: F) => {
      setEditing(record);
      setForm(values);
    },
    reset: () => {
      setEditing(undefined);
      setForm(empty);
    },
  };
}
