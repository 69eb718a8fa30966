import { Link, useNavigate } from 'react-router';
import { NEW_GROUP_TEXT, PATHS, groupPath } from '../../shared/constants';
import { buttonClass } from '../../shared/ui/Button';
import { RequireUser } from '../../shared/session/RequireUser';
import { useUi } from '../../shared/ui/uiContext';
import { createGroup } from './groupApi';
import { formFromGroup } from './groupForm';
import { GroupSettingsForm } from './GroupSettingsForm';

/** /create/group: a group of one's own, whose creator becomes its admin. */
export function CreateGroupPage() {
  const ui = useUi();
  const navigate = useNavigate();
  return (
    <div className="mx-auto max-w-xl px-4 py-6 sm:py-10">
      <h1 className="text-2xl font-bold tracking-tight">{NEW_GROUP_TEXT}</h1>
      <p className="mt-1 mb-6 text-sm text-slate-500">You will be its admin: you choose who reads and who writes, and make moderators.</p>
      <RequireUser loginMessage="Log in to start a group of your own.">
        {() => (
          <div className="rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
            <GroupSettingsForm
              initial={formFromGroup(null)}
              submitLabel="Create group"
              onSubmit={async (fields) => {
                const { group } = await createGroup(fields);
                ui.toast('Group created');
                navigate(groupPath(group._id));
              }}
            >
              <Link to={PATHS.home} className={buttonClass('ghost')}>
                Cancel
              </Link>
            </GroupSettingsForm>
          </div>
        )}
      </RequireUser>
    </div>
  );
}
