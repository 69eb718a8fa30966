import { NO_MESSAGE_INFO_TEXT } from './constants';
import { useAsyncData } from '../../shared/hooks/useAsyncData';
import { describeError } from '../../shared/errors';
import { relativeTime } from '../../shared/relativeTime';
import { Loading } from '../../shared/ui/Loading';
import { Modal } from '../../shared/ui/Modal';
import { useChatKinds } from '../../shared/chat/kinds';
import type { ChatMessage } from '../../shared/chat/types';
import { UserName } from '../../shared/chat/UserName';
import { fetchMessageInfo } from './chatApi';

/** Who received and who read a message (for its sender and for moderators). */
export function MessageInfoDialog({ message, onClose }: { message: ChatMessage; onClose: () => void }) {
  const kindInfo = useChatKinds().messageKind(message.type)?.info;
  const info = useAsyncData(`${message.dest_session_id}/${message.created_at}`, () =>
    fetchMessageInfo(message.dest_session_id, message.created_at),
  );
  // What a plug-in's kind adds to the view (a business message's WhatsApp flags).
  const KindView = info.status === 'success' && kindInfo?.shows(info.data.info) ? kindInfo.View : null;
  return (
    <Modal title="Message info" onClose={onClose}>
      {info.status === 'loading' && <Loading />}
      {info.status === 'error' && <p className="text-sm text-red-600">{describeError(info.error).join(' ')}</p>}
      {info.status === 'success' && KindView && <KindView info={info.data.info} />}
      {info.status === 'success' &&
        (info.data.info.read.length + info.data.info.delivered.length === 0 ? (
          !KindView && <p className="text-sm text-slate-600">{NO_MESSAGE_INFO_TEXT}</p>
        ) : (
          <dl className="mt-4 space-y-4 text-sm first:mt-0">
            {(
              [
                ['Read by', info.data.info.read],
                ['Delivered to', info.data.info.delivered],
              ] as const
            ).map(
              ([label, entries]) =>
                entries.length > 0 && (
                  <div key={label}>
                    <dt className="mb-1 font-semibold text-slate-700">{label}</dt>
                    {entries.map((entry) => (
                      <dd key={entry.user_id} className="flex justify-between gap-3 text-slate-600">
                        <UserName userId={entry.user_id} />
                        {entry.at !== null && <span className="text-slate-500">{relativeTime(entry.at)}</span>}
                      </dd>
                    ))}
                  </div>
                ),
            )}
          </dl>
        ))}
    </Modal>
  );
}
