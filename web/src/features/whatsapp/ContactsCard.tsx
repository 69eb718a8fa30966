import type { WaContact } from './whatsappApi';

/** A shared contact: name, company, and phones and e-mails one tap away. */
export function ContactsCard({ contact }: { contact: WaContact }) {
  const name = contact.name.formatted_name;
  return (
    <section aria-label={`Contact ${name}`} data-testid="wa-contact" className="mt-1 rounded-lg bg-black/5 px-3 py-2 text-sm">
      <p className="font-semibold">👤 {name}</p>
      {contact.org?.company && <p className="text-slate-600">{contact.org.company}</p>}
      <ul className="mt-1 space-y-0.5">
        {contact.phones?.map((phone) => (
          <li key={phone.phone}>
            <a href={`tel:${phone.phone.replace(/[^\d+]/g, '')}`} className="underline underline-offset-2">
              {phone.phone}
            </a>
            {phone.type && <span className="text-slate-600"> · {phone.type.toLowerCase()}</span>}
          </li>
        ))}
        {contact.emails?.map((email) => (
          <li key={email.email}>
            <a href={`mailto:${email.email}`} className="break-all underline underline-offset-2">
              {email.email}
            </a>
            {email.type && <span className="text-slate-600"> · {email.type.toLowerCase()}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
