import type { InputHTMLAttributes, ReactNode } from 'react';

/** A text control's look without its width, for controls that size to their content. */
export const controlClass =
  'block h-11 min-w-0 rounded-xl border border-slate-300 bg-white px-3 text-base text-slate-900 placeholder:text-slate-400 shadow-xs transition-colors focus:border-brand-500 focus:outline-none focus:ring-4 focus:ring-brand-500/15 disabled:bg-slate-100 read-only:bg-slate-50 aria-invalid:border-red-400 aria-invalid:focus:ring-red-500/15';

export const inputClass = `${controlClass} w-full`;

interface FieldProps {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  /** A small control at the end of the label row, such as "Change". */
  action?: ReactNode;
  children: ReactNode;
}

/** Label, control and the message under it; the control is passed in. */
export function Field({ id, label, error, hint, action, children }: FieldProps) {
  return (
    <div className="space-y-1.5">
      <div className="flex items-baseline justify-between gap-3">
        <label htmlFor={id} className="block text-sm font-medium text-slate-700">
          {label}
        </label>
        {action}
      </div>
      {children}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-600">
          {error}
        </p>
      ) : (
        hint && (
          <p id={`${id}-hint`} className="text-sm text-slate-500">
            {hint}
          </p>
        )
      )}
    </div>
  );
}

/** Accessibility wiring between a control and the message its Field shows. */
export function describedBy(id: string, error: string | undefined, hint: ReactNode) {
  return {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : hint ? `${id}-hint` : undefined,
  };
}

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
}

export function TextField({ id, label, error, hint, className = '', ...input }: TextFieldProps) {
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      <input id={id} className={`${inputClass} ${className}`} {...describedBy(id, error, hint)} {...input} />
    </Field>
  );
}
