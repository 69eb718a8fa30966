import { relativeTime } from '../../shared/relativeTime';
import type { WaInfo } from './whatsappApi';

/** The flags with a time, in the order a message goes through them (spec: message info flags). */
const TIMED_FLAGS = [
  ['s1', 'Sent by server'],
  ['wa_s', 'Sent'],
  ['wa_d', 'Delivered'],
  ['wa_r', 'Read'],
  ['wa_f', 'Failed'],
  ['wa_ns', 'Not sent (channel disabled or no credits)'],
] as const;

const timeFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium' });

/** Whether the flags hold anything to show. */
export function hasWaInfo(info: WaInfo | undefined): info is WaInfo {
  return info !== undefined && Object.values(info).some((value) => value !== undefined && value !== false);
}

/** A business message's WhatsApp history for the info view: each flag with its time, errors and clicks. */
export function WhatsAppInfo({ info }: { info: WaInfo }) {
  return (
    <dl aria-label="WhatsApp" className="space-y-1.5 text-sm">
      {info.s0 && <Row label="Templated" />}
      {TIMED_FLAGS.map(([flag, label]) => {
        const at = info[flag];
        return at ? <Row key={flag} label={label} at={at} /> : null;
      })}
      {info.wa_errors && info.wa_errors.length > 0 && (
        // A group of its own, named for assistive technology: a list's terms each need their descriptions.
        <div className="space-y-1.5">
          <dt className="sr-only">Errors</dt>
          {info.wa_errors.map((error) => (
            <dd key={`${error.code}:${error.title}`} className="rounded-lg bg-red-50 px-2 py-1 text-red-800">
              <span className="font-semibold">{error.code}</span> {error.title}
              {error.message && error.message !== error.title && <span className="block text-xs">{error.message}</span>}
            </dd>
          ))}
        </div>
      )}
      {info.wa_click !== undefined && <Row label="Clicks" value={String(info.wa_click)} />}
    </dl>
  );
}

function Row({ label, at, value }: { label: string; at?: number; value?: string }) {
  return (
    <div className="flex justify-between gap-3">
      <dt className="font-semibold text-slate-700">{label}</dt>
      <dd className="text-slate-600">
        {at !== undefined && (
          <time dateTime={new Date(at).toISOString()} title={timeFormat.format(at)}>
            {relativeTime(at)}
          </time>
        )}
        {value}
      </dd>
    </div>
  );
}
