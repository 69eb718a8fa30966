import { useMemo, useState } from 'react';
import { useSocketEvent } from '../../shared/hooks/useSocketEvent';
import type { InboxMessage } from '../../shared/chat/types';
import { withWaStatuses } from './businessChat';
import type { WaInfo, WaStatusEvent } from './whatsappApi';

/** The session's messages with the flags WhatsApp's statuses (socket `wa_status`, type 1022) moved live. */
export function useWaStatuses<T extends InboxMessage>(sessionId: string, messages: T[]): T[] {
  const [reported, setReported] = useState<Record<string, WaInfo>>({});
  useSocketEvent<WaStatusEvent>('wa_status', (report) => {
    if (report.session_id !== sessionId) return;
    setReported((current) => ({ ...current, [report.id]: { ...current[report.id], ...report.info } }));
  });
  return useMemo(() => withWaStatuses(messages, reported), [messages, reported]);
}
