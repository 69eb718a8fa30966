import { useState } from 'react';
import { Button } from '../../shared/ui/Button';
import { ErrorBox } from '../../shared/ui/ErrorBox';
import { Modal } from '../../shared/ui/Modal';
import { TextField } from '../../shared/ui/TextField';
import { contactsProblem } from './sends';
import type { WaContact } from './whatsappApi';

const FIELDS = [
  ['name', 'Name', 'text'],
  ['phone', 'Phone number', 'tel'],
  ['email', 'E-mail', 'email'],
  ['company', 'Company', 'text'],
] as const;

type ContactFields = Record<(typeof FIELDS)[number][0], string>;

/** The contact card built from the form; empty fields are left out. */
export function contactFrom(fields: ContactFields): WaContact {
  const trimmed = (value: string) => value.trim();
  return {
    name: { formatted_name: trimmed(fields.name) },
    ...(trimmed(fields.phone) ? { phones: [{ phone: trimmed(fields.phone) }] } : {}),
    ...(trimmed(fields.email) ? { emails: [{ email: trimmed(fields.email) }] } : {}),
    ...(trimmed(fields.company) ? { org: { company: trimmed(fields.company) } } : {}),
  };
}

/** Shares one contact card with the customer. */
export function ContactsDialog({ onShare, onClose }: { onShare: (contacts: WaContact[]) => void; onClose: () => void }) {
  const [fields, setFields] = useState<ContactFields>({ name: '', phone: '', email: '', company: '' });
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <Modal title="Share a contact" onClose={onClose}>
      <form
        noValidate
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          const contacts = [contactFrom(fields)];
          const refusal = contactsProblem(contacts);
          setProblem(refusal);
          if (refusal) return;
          onShare(contacts);
          onClose();
        }}
      >
        {FIELDS.map(([key, label, type]) => (
          <TextField
            key={key}
            id={`contact-${key}`}
            label={label}
            type={type}
            value={fields[key]}
            onChange={(event) => setFields((current) => ({ ...current, [key]: event.target.value }))}
          />
        ))}
        {problem && <ErrorBox lines={[problem]} />}
        <div className="flex justify-end">
          <Button type="submit">Share contact</Button>
        </div>
      </form>
    </Modal>
  );
}
