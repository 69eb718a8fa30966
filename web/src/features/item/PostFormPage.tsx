import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { FINDER_FEE_LABEL, FINDER_FEE_PERCENT_MAX, NEED_USER_TO_VIEW_LABEL, NOT_ITEM_OWNER_TEXT, OFFER_AMOUNT_PLACEHOLDER, OFFER_CURRENCIES, OFFER_DESCRIPTION_PLACEHOLDER, POINTS_FORM_LABEL, POST_DESCRIPTION_PLACEHOLDER, POST_FORM_INVALID_GROUP_TEXT, POST_TITLE_PLACEHOLDER } from './constants';
import { POINTS_CURRENCY, groupFeedPath, groupPath, routePath } from '../../shared/constants';
import { formatMoney } from '../../shared/currency';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { useAsyncData } from '../../shared/hooks/useAsyncData';
import { Button, buttonClass } from '../../shared/ui/Button';
import { EmptyState } from '../../shared/ui/EmptyState';
import { Loading } from '../../shared/ui/Loading';
import { TagChips } from '../../shared/ui/TagChips';
import { Field, TextField, inputClass } from '../../shared/ui/TextField';
import { useUi } from '../../shared/ui/uiContext';
import { RequireUser } from '../../shared/session/RequireUser';
import { CANNOT_POST_TEXT, fetchGroup, whyCannotPost, type Group } from '../../shared/entities/group';
import { fetchItem, type Item } from '../../shared/entities/item';
import { FilePicker } from './FilePicker';
import { refusedNote, type HoldNote as Note } from './hold';
import { HoldNote, useHoldNote } from './HoldNote';
import { createItem, updateItem } from './itemApi';
import { fieldsFromForm, finderFeeAmount, finderFeeError, formFromItem, type ItemForm, type OfferType } from './itemForm';

/** /create/item/:groupId and /edit/item/:groupId/:itemId. */
export function PostFormPage() {
  const { groupId = '', itemId } = useParams();
  return (
    <RequireUser>
      {(user) => <PostFormLoader key={`${groupId}/${itemId ?? ''}`} groupId={groupId} itemId={itemId} userId={user._id} />}
    </RequireUser>
  );
}

function PostFormLoader({ groupId, itemId, userId }: { groupId: string; itemId?: string; userId: string }) {
  const loaded = useAsyncData(`${groupId}/${itemId ?? ''}`, async (signal) => {
    if (itemId) return fetchItem(itemId, groupId, signal);
    const { group } = await fetchGroup(groupId, signal);
    return { group, item: null };
  });
  return (
    <div className="mx-auto max-w-2xl px-4 py-6 sm:py-10">
      {loaded.status === 'loading' && <Loading />}
      {loaded.status === 'error' && <EmptyState icon="🔒" title={POST_FORM_INVALID_GROUP_TEXT} />}
      {loaded.status === 'success' &&
        (loaded.data.item && loaded.data.item.user_id !== userId ? (
          // Only Save would fail: refusing at once spares filling in a form that cannot be sent.
          <EmptyState icon="🔒" title={NOT_ITEM_OWNER_TEXT}>
            <Link to={routePath(loaded.data.item.route_id)} className={buttonClass('secondary')}>
              View the post
            </Link>
          </EmptyState>
        ) : !loaded.data.item && whyCannotPost(loaded.data.group) ? (
          // Told before a word is typed, not by the server's refusal of the whole form.
          <EmptyState icon="🚫" title={CANNOT_POST_TEXT} description={whyCannotPost(loaded.data.group)}>
            <Link to={groupFeedPath(groupId)} className={buttonClass('secondary')}>
              Back to the posts
            </Link>
            <Link to={groupPath(groupId)} className={buttonClass('secondary')}>
              About this group
            </Link>
          </EmptyState>
        ) : (
          <PostForm group={loaded.data.group} item={loaded.data.item} />
        ))}
    </div>
  );
}

const OFFER_TYPES: readonly OfferType[] = ['value', 'describe'];

function PostForm({ group, item }: { group: Group; item: Item | null }) {
  const ui = useUi();
  const navigate = useNavigate();
  const [form, setForm] = useState<ItemForm>(() => formFromItem(item));
  const [uploading, setUploading] = useState(false);
  // The server's refusal of the last save (a reward above what is available), until the form changes.
  const [refusal, setRefusal] = useState<Note | null>(null);
  const preview = useHoldNote(form, item);
  const edit = <K extends keyof ItemForm>(key: K, value: ItemForm[K]) => {
    setRefusal(null);
    setForm((current) => ({ ...current, [key]: value }));
  };

  const save = useAsyncAction(async () => {
    try {
      const fields = fieldsFromForm(form);
      const reply = item ? await updateItem(group._id, item._id, fields) : await createItem(group._id, fields);
      navigate(routePath(reply.item.route_id));
    } catch (error) {
      const note = refusedNote(error);
      if (note) setRefusal(note);
      else ui.showError(error);
    }
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!uploading) void save.run();
  };

  return (
    <form onSubmit={onSubmit} className="space-y-5 rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">{item ? 'Edit post' : 'New post'}</h1>
        <p className="mt-1 text-sm text-slate-500">in {group.title}</p>
      </div>
      <TextField
        id="post-title"
        label="Title"
        placeholder={POST_TITLE_PLACEHOLDER}
        // A new post starts with its title: the cursor is there, as the form opens.
        autoFocus={!item}
        value={form.title}
        onChange={(event) => edit('title', event.target.value)}
      />
      <Field id="post-description" label="Description">
        <textarea
          id="post-description"
          rows={4}
          placeholder={POST_DESCRIPTION_PLACEHOLDER}
          value={form.description}
          onChange={(event) => edit('description', event.target.value)}
          className={`${inputClass} h-auto py-2`}
        />
      </Field>
      <div className="space-y-1.5">
        <p className="text-sm font-medium text-slate-700">Photos</p>
        <FilePicker files={form.files} onChange={(update) => setForm((current) => ({ ...current, files: update(current.files) }))} onUploadingChange={setUploading} />
      </div>
      {group.data.tags.length > 0 && (
        <div className="space-y-1.5">
          <p className="text-sm font-medium text-slate-700">Tags</p>
          <TagChips tags={group.data.tags} selected={form.tags} onChange={(tags) => edit('tags', tags)} />
        </div>
      )}

      <fieldset className="space-y-3">
        <legend className="mb-1.5 text-sm font-medium text-slate-700">Offer</legend>
        <div role="radiogroup" aria-label="Offer type" className="inline-flex rounded-xl bg-slate-100 p-1">
          {OFFER_TYPES.map((type) => (
            <button
              key={type}
              type="button"
              role="radio"
              aria-checked={form.offerType === type}
              onClick={() => edit('offerType', type)}
              className={`rounded-lg px-4 py-1.5 text-sm font-semibold ${form.offerType === type ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600'}`}
            >
              {type}
            </button>
          ))}
        </div>
        {form.offerType === 'value' ? (
          <div className="flex gap-2">
            <input
              type="number"
              inputMode="decimal"
              min={0}
              step="any"
              aria-label="Offer amount"
              placeholder={OFFER_AMOUNT_PLACEHOLDER}
              value={form.offerAmount}
              onChange={(event) => edit('offerAmount', event.target.value)}
              className={inputClass}
            />
            {/* Wrapped: the input look sets w-full, which the width here must not fight. */}
            <div className="w-28 shrink-0">
              <select
                aria-label="Offer currency"
                value={form.offerCurrency}
                onChange={(event) => edit('offerCurrency', event.target.value)}
                className={inputClass}
              >
                {OFFER_CURRENCIES.map((currency) => (
                  <option key={currency} value={currency}>
                    {currency === POINTS_CURRENCY ? POINTS_FORM_LABEL : currency}
                  </option>
                ))}
              </select>
            </div>
          </div>
        ) : (
          <input
            aria-label="Offer description"
            placeholder={OFFER_DESCRIPTION_PLACEHOLDER}
            value={form.offerDescription}
            onChange={(event) => edit('offerDescription', event.target.value)}
            className={inputClass}
          />
        )}
        {form.offerType === 'value' && <FinderFeeField form={form} onChange={(value) => edit('finderFeePercent', value)} />}
        <HoldNote note={refusal ?? preview} />
      </fieldset>

      <label className="flex items-center gap-3 text-sm text-slate-700">
        <input
          type="checkbox"
          checked={form.needUserToView}
          onChange={(event) => edit('needUserToView', event.target.checked)}
          className="size-4 rounded accent-brand-600"
        />
        {NEED_USER_TO_VIEW_LABEL}
      </label>

      <Button type="submit" size="lg" className="w-full" busy={save.busy} disabled={uploading}>
        {item ? 'Save' : 'Post'}
      </Button>
    </form>
  );
}

/** The finder's fee in percent, with what it means in money for the amount entered. */
function FinderFeeField({ form, onChange }: { form: ItemForm; onChange: (value: string) => void }) {
  const error = finderFeeError(form.finderFeePercent);
  const money = finderFeeAmount(form.offerAmount, form.finderFeePercent);
  return (
    <div className="space-y-1">
      <label htmlFor="post-finder-fee" className="text-sm font-medium text-slate-700">
        {FINDER_FEE_LABEL}
      </label>
      <div className="flex items-center gap-2">
        {/* Wrapped: the input look sets w-full, which the width here must not fight. */}
        <div className="w-24">
          <input
            id="post-finder-fee"
            type="number"
            inputMode="numeric"
            min={0}
            max={FINDER_FEE_PERCENT_MAX}
            step={1}
            value={form.finderFeePercent}
            aria-invalid={error ? true : undefined}
            aria-describedby="post-finder-fee-hint"
            onChange={(event) => onChange(event.target.value)}
            className={inputClass}
          />
        </div>
        <span className="text-sm text-slate-600">%</span>
      </div>
      <p id="post-finder-fee-hint" className={`text-xs ${error ? 'text-red-700' : 'text-slate-500'}`}>
        {error ??
          (money === null
            ? 'Paid by you on top of the offer, shared by the people whose links brought the helper; 0 turns it off.'
            : `${formatMoney(money, form.offerCurrency)} on top of the offer, shared by the people whose links brought the helper.`)}
      </p>
    </div>
  );
}
