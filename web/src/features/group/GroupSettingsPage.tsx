import { Link, useParams } from 'react-router';
import { ADMINS_ONLY_SETTINGS_TEXT, GROUP_SETTINGS_TITLE } from './constants';
import { MEMBER_TYPES, groupPath, groupWhatsappPath } from '../../shared/constants';
import { useAsyncData } from '../../shared/hooks/useAsyncData';
import { buttonClass } from '../../shared/ui/Button';
import { EmptyState } from '../../shared/ui/EmptyState';
import { Loading } from '../../shared/ui/Loading';
import { useUi } from '../../shared/ui/uiContext';
import { MembersList } from '../../shared/chat/MembersList';
import { fetchGroup, type Group } from '../../shared/entities/group';
import { RequireUser } from '../../shared/session/RequireUser';
import { updateGroup } from './groupApi';
import { formFromGroup } from './groupForm';
import { GroupSettingsForm } from './GroupSettingsForm';

/** /group/:groupId/settings: the admin's screen: the group's settings, its WhatsApp number, its members and their roles. */
export function GroupSettingsPage() {
  const { groupId = '' } = useParams();
  return (
    <div className="mx-auto max-w-xl space-y-6 px-4 py-6 sm:py-10">
      <RequireUser>{(user) => <Settings key={`${groupId}/${user._id}`} groupId={groupId} />}</RequireUser>
    </div>
  );
}

function Settings({ groupId }: { groupId: string }) {
  const group = useAsyncData(groupId, (signal) => fetchGroup(groupId, signal));
  if (group.status === 'loading') return <Loading />;
  if (group.status === 'error' || group.data.group.session_user_type !== MEMBER_TYPES.admin) {
    return (
      <EmptyState icon="🔒" title={ADMINS_ONLY_SETTINGS_TEXT}>
        <Link to={groupPath(groupId)} className={buttonClass('secondary')}>
          Back to the group
        </Link>
      </EmptyState>
    );
  }
  return <AdminScreen group={group.data.group} />;
}

const card = 'space-y-4 rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8';

function AdminScreen({ group }: { group: Group }) {
  const ui = useUi();
  return (
    <>
      <div>
        <Link to={groupPath(group._id)} className="text-sm font-medium text-brand-700 hover:underline">
          ← {group.title}
        </Link>
        <h1 className="mt-1 text-2xl font-bold tracking-tight">{GROUP_SETTINGS_TITLE}</h1>
      </div>
      <section aria-label="Settings" className={card}>
        <GroupSettingsForm
          initial={formFromGroup(group)}
          submitLabel="Save"
          onSubmit={async (fields) => {
            await updateGroup(group._id, fields);
            ui.toast('Saved');
          }}
        />
      </section>
      <section aria-labelledby="group-whatsapp-heading" className={card}>
        <h2 id="group-whatsapp-heading" className="text-base font-semibold">
          WhatsApp Business
        </h2>
        <p className="text-sm text-slate-600">Answer the customers who write to your WhatsApp Business number here, with your moderators.</p>
        <Link to={groupWhatsappPath(group._id)} className={buttonClass('secondary')}>
          WhatsApp settings
        </Link>
      </section>
      <div className={card}>
        <MembersList sessionId={group._id} viewerType={group.session_user_type} />
      </div>
    </>
  );
}
