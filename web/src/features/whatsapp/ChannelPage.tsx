import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { LINK_COPIED_TEXT, groupPath } from '../../shared/constants';
import { WA_NO_CHANNEL_TEXT } from './constants';
import { describeError } from '../../shared/errors';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { useAsyncData } from '../../shared/hooks/useAsyncData';
import { relativeTime } from '../../shared/relativeTime';
import { Button } from '../../shared/ui/Button';
import { ErrorBox } from '../../shared/ui/ErrorBox';
import { Loading } from '../../shared/ui/Loading';
import { useUi } from '../../shared/ui/uiContext';
import { RequireUser } from '../../shared/session/RequireUser';
import { cardClass, ChannelForm } from './ChannelForm';
import { WhatsAppMark } from './WhatsAppMark';
import { fetchChannel, setChannelEnabled, syncTemplates, type WaChannel } from './whatsappApi';

/** /group/:groupId/whatsapp: the group admins' WhatsApp Business connection. */
export function ChannelPage() {
  const { groupId = '' } = useParams();
  return (
    <div className="mx-auto max-w-2xl space-y-5 px-4 py-6 sm:py-10">
      <div className="flex items-center gap-3">
        <WhatsAppMark className="size-8" />
        <div>
          <h1 className="text-2xl font-bold tracking-tight">WhatsApp Business</h1>
          <Link to={groupPath(groupId)} className="text-sm text-brand-700 hover:underline">
            Back to the group
          </Link>
        </div>
      </div>
      <RequireUser loginMessage="Log in as the group's admin to connect WhatsApp.">{() => <ChannelScreen groupId={groupId} />}</RequireUser>
    </div>
  );
}

function ChannelScreen({ groupId }: { groupId: string }) {
  const loaded = useAsyncData(groupId, (signal) => fetchChannel(groupId, signal));
  // What the server last said, after a save, an enable or a sync.
  const [changed, setChanged] = useState<WaChannel | null>(null);
  if (loaded.status === 'loading') return <Loading />;
  if (loaded.status === 'error') return <ErrorBox lines={describeError(loaded.error)} />;
  const channel = changed ?? loaded.data.channel;
  return (
    <>
      {channel ? <ChannelState groupId={groupId} channel={channel} onChannel={setChanged} /> : <p className="text-slate-600">{WA_NO_CHANNEL_TEXT}</p>}
      <ChannelForm groupId={groupId} channel={channel} onSaved={setChanged} />
    </>
  );
}

function ChannelState({ groupId, channel, onChannel }: { groupId: string; channel: WaChannel; onChannel: (channel: WaChannel) => void }) {
  const ui = useUi();
  const toggle = useAsyncAction(async () => {
    try {
      const reply = await setChannelEnabled(groupId, !channel.enabled);
      if (reply.channel) onChannel(reply.channel);
    } catch (error) {
      ui.showError(error);
    }
  });
  const sync = useAsyncAction(async () => {
    try {
      const { templates } = await syncTemplates(groupId);
      ui.toast(`${templates.length} approved template${templates.length === 1 ? '' : 's'} synced`);
      onChannel({ ...channel, templates_synced_at: Date.now() });
    } catch (error) {
      ui.showError(error);
    }
  });
  return (
    <section aria-labelledby="channel-state" className={cardClass}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="channel-state" className="text-lg font-semibold">
          {channel.display_phone_number}
        </h2>
        <span
          data-testid="channel-status"
          className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${channel.enabled ? 'bg-emerald-50 text-emerald-800' : 'bg-slate-100 text-slate-700'}`}
        >
          {channel.enabled ? 'Connected' : 'Disabled'}
        </span>
      </div>
      <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="font-medium text-slate-700">Phone number id</dt>
        <dd className="break-all text-slate-600">{channel.phone_number_id}</dd>
        <dt className="font-medium text-slate-700">Last event</dt>
        <dd className="text-slate-600">{channel.last_event_at ? relativeTime(channel.last_event_at) : 'None yet'}</dd>
        <dt className="font-medium text-slate-700">Templates synced</dt>
        <dd className="text-slate-600">{channel.templates_synced_at ? relativeTime(channel.templates_synced_at) : 'Never'}</dd>
        <dt className="font-medium text-slate-700">Webhook URL</dt>
        <dd className="flex min-w-0 items-center gap-2">
          <code className="min-w-0 flex-1 truncate rounded-lg bg-slate-100 px-2 py-1 text-xs text-slate-800">{channel.webhook_url}</code>
          <CopyButton text={channel.webhook_url} />
        </dd>
      </dl>
      <div className="flex flex-wrap gap-2">
        <Button variant={channel.enabled ? 'danger' : 'primary'} size="sm" busy={toggle.busy} onClick={() => void toggle.run()}>
          {channel.enabled ? 'Disable' : 'Enable'}
        </Button>
        <Button variant="secondary" size="sm" busy={sync.busy} onClick={() => void sync.run()}>
          Sync templates
        </Button>
      </div>
    </section>
  );
}

function CopyButton({ text }: { text: string }) {
  const ui = useUi();
  return (
    <Button
      variant="secondary"
      size="sm"
      aria-label="Copy the webhook URL"
      onClick={() =>
        void navigator.clipboard.writeText(text).then(
          () => ui.toast(LINK_COPIED_TEXT),
          (error: unknown) => ui.showError(error),
        )
      }
    >
      Copy
    </Button>
  );
}
