import { AlertIcon, ClockIcon, CloseIcon, DoubleTickIcon, TickIcon } from '../../shared/ui/icons';
import type { DeliveryIcon } from './messages';

const LABELS: Record<DeliveryIcon, string> = {
  pending: 'Sending',
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
  not_sent: 'Not sent',
  error: 'Error',
};

export function DeliveryTicks({ icon }: { icon: DeliveryIcon }) {
  return (
    <span role="img" aria-label={LABELS[icon]} data-delivery={icon} className="inline-flex">
      {icon === 'pending' && <ClockIcon className="size-3.5 opacity-70" />}
      {icon === 'sent' && <TickIcon className="size-4 opacity-80" />}
      {icon === 'delivered' && <DoubleTickIcon className="size-4 opacity-80" />}
      {icon === 'read' && <DoubleTickIcon className="size-4 text-sky-300" />}
      {icon === 'not_sent' && <CloseIcon className="size-4 text-red-200" />}
      {icon === 'error' && <AlertIcon className="size-4 text-amber-200" />}
    </span>
  );
}
