import { useEffect, useState, type FormEvent } from 'react';
import { LOGIN_TITLE } from './constants';
import { OTP_DEFAULT_LENGTH } from '../../shared/constants';
import { emptyContact, toLoginIdentity, type ContactEntry, type LoginIdentity } from '../../shared/contact';
import { appEvents } from '../../shared/events';
import { isApiError, splitFieldErrors } from '../../shared/errors';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { Button } from '../../shared/ui/Button';
import { ContactField } from '../../shared/ui/ContactField';
import { Modal } from '../../shared/ui/Modal';
import { TextField } from '../../shared/ui/TextField';
import { useUi } from '../../shared/ui/uiContext';
import { dropPendingAction } from '../../shared/session/login';
import { setAuthKey } from '../../shared/session/authKey';
import { postLogin, type LoginCodeInfo, type LoginField, type LoginRequest } from './loginApi';

/** Server error keys -> the dialog field that shows them. */
const FIELD_FOR_ERROR: Readonly<Record<string, string>> = {
  email_id: 'contact',
  phone_number: 'contact',
  email_id_or_phone_number: 'contact',
  name: 'name',
  otp: 'otp',
};

/** Mounts the login dialog whenever the app or the server asks for a login. */
export function LoginDialogHost() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const show = () => setOpen(true);
    const offNeedUser = appEvents.on('need_user', show);
    const offDoLogin = appEvents.on('do_login', show);
    return () => {
      offNeedUser();
      offDoLogin();
    };
  }, []);
  const cancel = () => {
    dropPendingAction();
    setOpen(false);
  };
  return open ? <LoginDialog onClose={cancel} onLoggedIn={() => setOpen(false)} /> : null;
}

/**
 * The server drives the steps: each reply lists what it still requires (an identifier,
 * the one-time code, then a name for a new account) until it returns the user and an auth
 * key. Whether an address has an account is not told before its code is entered.
 */
export function LoginDialog({ onClose, onLoggedIn }: { onClose: () => void; onLoggedIn: () => void }) {
  const ui = useUi();
  const [contact, setContact] = useState<ContactEntry>(emptyContact);
  const [name, setName] = useState('');
  const [otp, setOtp] = useState('');
  const [require, setRequire] = useState<LoginField[]>([]);
  /** Set once a code went out: the identifier is then fixed and the code field stays. */
  const [code, setCode] = useState<LoginCodeInfo | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  const askName = require.includes('name');
  const askOtp = code !== null || require.includes('otp');

  const send = async (body: LoginRequest) => {
    setFieldErrors({});
    try {
      const reply = await postLogin(body);
      if ('allspark_auth_key' in reply) {
        setAuthKey(reply.allspark_auth_key);
        ui.toast(`Welcome, ${reply.user.name}`);
        onLoggedIn();
        return;
      }
      setRequire(reply.require);
      if (reply.require.includes('email_id_or_phone_number')) setCode(null);
      if (reply.data) {
        setCode(reply.data);
        setOtp('');
      }
    } catch (error) {
      if (!isApiError(error)) throw error;
      const { fields, rest } = splitFieldErrors(error.errors, FIELD_FOR_ERROR);
      setFieldErrors(fields);
      if (rest) ui.showError(rest);
    }
  };
  const submit = useAsyncAction(send);

  const identity = (): LoginIdentity | null => {
    const parsed = toLoginIdentity(contact);
    if (!parsed) setFieldErrors({ contact: 'Enter your e-mail address or phone number' });
    return parsed;
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const id = identity();
    if (!id) return;
    void submit.run({ ...id, ...(askName ? { name: name.trim() } : {}), ...(askOtp ? { otp: otp.trim() } : {}) });
  };

  const resendCode = () => {
    const id = identity();
    if (id) void submit.run(id);
  };

  const changeContact = () => {
    setCode(null);
    setRequire([]);
    setOtp('');
    setFieldErrors({});
  };

  return (
    <Modal title={LOGIN_TITLE} onClose={onClose}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <ContactField
          id="login-contact"
          label="E-mail or phone number"
          placeholder="you@example.com or 612345678"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={contact}
          onChange={setContact}
          readOnly={code !== null}
          error={fieldErrors.contact}
          hint={code && <span className="break-all">We sent a code to {code.sent_to}</span>}
          action={
            code && (
              <button type="button" onClick={changeContact} className="text-sm font-medium text-brand-700 hover:underline">
                Change
              </button>
            )
          }
          data-autofocus
        />
        {askName && (
          <TextField
            id="login-name"
            label="Your name"
            autoComplete="name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={fieldErrors.name}
            hint="Welcome! This is how others will see you."
            autoFocus
          />
        )}
        {askOtp && (
          <TextField
            id="login-otp"
            label="Code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={code?.otp_length ?? OTP_DEFAULT_LENGTH}
            placeholder={'•'.repeat(code?.otp_length ?? OTP_DEFAULT_LENGTH)}
            className="tracking-[0.3em]"
            value={otp}
            onChange={(event) => setOtp(event.target.value.replace(/\D/g, ''))}
            error={fieldErrors.otp}
            autoFocus={!askName}
          />
        )}
        <div className="flex items-center justify-between gap-3 pt-2">
          {askOtp ? (
            <button
              type="button"
              onClick={resendCode}
              disabled={submit.busy}
              className="text-sm font-medium text-brand-700 hover:underline disabled:opacity-50"
            >
              Resend code
            </button>
          ) : (
            <span />
          )}
          <Button type="submit" size="lg" busy={submit.busy} className="min-w-32">
            Next
          </Button>
        </div>
      </form>
    </Modal>
  );
}
