import { AlertIcon, ClockIcon, CloseIcon, DoubleTickIcon, TickIcon } from '../../shared/ui/icons';
import type { DeliveryIcon } from '../../shared/chat/types';

const LABELS: Record<DeliveryIcon, string> = {
  pending: 'Sending',
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
  not_sent: 'Not sent',
  error: 'Error',
};

/** Drawn on the own bubble's light green; every colour keeps at least 3:1 against it. */
export function DeliveryTicks({ icon }: { icon: DeliveryIcon }) {
  return (
    <span role="img" aria-label={LABELS[icon]} data-delivery={icon} className="inline-flex">
      {icon === 'pending' && <ClockIcon className="size-3.5 text-slate-500" />}
      {icon === 'sent' && <TickIcon className="size-4 text-slate-500" />}
      {icon === 'delivered' && <DoubleTickIcon className="size-4 text-slate-500" />}
      {icon === 'read' && <DoubleTickIcon className="size-4 text-blue-600" />}
      {icon === 'not_sent' && <CloseIcon className="size-4 text-red-600" />}
      {icon === 'error' && <AlertIcon className="size-4 text-amber-700" />}
    </span>
  );
}
