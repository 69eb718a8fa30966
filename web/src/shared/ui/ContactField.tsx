import type { InputHTMLAttributes, ReactNode } from 'react';
import { PHONE_COUNTRY_CODES } from '../constants';
import { needsCountryCode, type ContactEntry } from '../contact';
import { Field, controlClass, describedBy, inputClass } from './TextField';

interface ContactFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'> {
  id: string;
  label: string;
  value: ContactEntry;
  onChange: (value: ContactEntry) => void;
  error?: string;
  hint?: ReactNode;
  action?: ReactNode;
}

/** A text input that grows a country-code selector once the entry starts with a digit. */
export function ContactField({ id, label, value, onChange, error, hint, action, readOnly, ...input }: ContactFieldProps) {
  const showCountryCode = needsCountryCode(value.text);
  return (
    <Field id={id} label={label} error={error} hint={hint} action={action}>
      <div className="flex gap-2">
        {showCountryCode && (
          <select
            aria-label="Country code"
            value={value.countryCode}
            disabled={readOnly}
            onChange={(event) => onChange({ ...value, countryCode: event.target.value })}
            className={`${controlClass} w-auto shrink-0 pr-8`}
          >
            {PHONE_COUNTRY_CODES.map((code) => (
              <option key={code} value={code}>
                +{code}
              </option>
            ))}
          </select>
        )}
        <input
          id={id}
          value={value.text}
          readOnly={readOnly}
          onChange={(event) => onChange({ ...value, text: event.target.value })}
          className={`${inputClass} flex-1`}
          {...describedBy(id, error, hint)}
          {...input}
        />
      </div>
    </Field>
  );
}
