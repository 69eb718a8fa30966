import { ERROR_POPUP_TITLE } from './constants';

/** What the server may put in `errors`: a message, a list, or field -> message. */
export type ErrorsValue = string | readonly unknown[] | Readonly<Record<string, unknown>> | null | undefined;

/** A failed API reply: the parsed JSON body plus the HTTP status (0: no reply at all). */
export interface ApiError {
  status: number;
  errors: ErrorsValue;
  need_user?: boolean;
  [field: string]: unknown;
}

export function isApiError(value: unknown): value is ApiError {
  return typeof value === 'object' && value !== null && typeof (value as { status?: unknown }).status === 'number' && 'errors' in value;
}

function formatValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(formatValue).join(', ');
  if (value instanceof Error) return value.message;
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

/**
 * Lines for the error popup: a string as is, one line per array entry, and
 * `key: value` for each field of an object.
 */
export function formatErrors(errors: unknown): string[] {
  if (errors === null || errors === undefined || errors === '') return [];
  if (typeof errors === 'string') return [errors];
  if (errors instanceof Error) return [errors.message];
  if (Array.isArray(errors)) return errors.flatMap((entry) => formatErrors(entry));
  if (typeof errors === 'object') {
    return Object.entries(errors).map(([key, value]) => `${key}: ${formatValue(value)}`);
  }
  return [String(errors)];
}

/** Lines describing anything a promise may reject with. */
export function describeError(error: unknown): string[] {
  if (isApiError(error)) {
    const lines = formatErrors(error.errors);
    return lines.length > 0 ? lines : [`Request failed with status ${error.status}`];
  }
  const lines = formatErrors(error);
  return lines.length > 0 ? lines : [ERROR_POPUP_TITLE];
}

/** Messages alone, without the field names the popup shows: for a message next to its own field. */
export function errorMessages(error: unknown): string {
  const errors = isApiError(error) ? error.errors : error;
  if (typeof errors === 'object' && errors !== null && !Array.isArray(errors) && !(errors instanceof Error)) {
    return Object.values(errors).map(formatValue).join(' ');
  }
  return describeError(error).join(' ');
}

/**
 * Splits server errors into messages for the form's own fields (shown next to them)
 * and the rest (shown in the popup). `fieldFor` maps a server key to a form field.
 */
export function splitFieldErrors(
  errors: ErrorsValue,
  fieldFor: Readonly<Record<string, string>>,
): { fields: Record<string, string>; rest: ErrorsValue } {
  if (typeof errors !== 'object' || errors === null || Array.isArray(errors)) {
    return { fields: {}, rest: errors };
  }
  const fields: Record<string, string> = {};
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(errors)) {
    const field = fieldFor[key];
    if (field) fields[field] = formatValue(value);
    else rest[key] = value;
  }
  return { fields, rest: Object.keys(rest).length > 0 ? rest : null };
}
