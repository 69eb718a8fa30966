import { useState, type FormEvent } from 'react';
import { REVIEW_EDIT_DAYS, REVIEW_TEXT_MAX } from './constants';
import { splitFieldErrors, isApiError } from '../../shared/errors';
import { useAsyncAction } from '../../shared/hooks/useAsyncAction';
import { Button } from '../../shared/ui/Button';
import { Modal } from '../../shared/ui/Modal';
import { Field, inputClass } from '../../shared/ui/TextField';
import { useUi } from '../../shared/ui/uiContext';
import { reviewDraftErrors } from './reviews';
import { createReview, updateReview, type Review, type ReviewDraft } from './reviewsApi';
import { StarPicker } from './Stars';

interface ReviewDialogProps {
  /** Who the review is of. */
  subjectName: string;
  /** The paid offer it is about. */
  moveId: string;
  /** The viewer's review, when they change it. */
  review: Review | null;
  onSaved: (review: Review) => void;
  onClose: () => void;
}

/** Writes or changes one review: 1 to 5 stars and a short text. */
export function ReviewDialog({ subjectName, moveId, review, onSaved, onClose }: ReviewDialogProps) {
  const ui = useUi();
  const [draft, setDraft] = useState<ReviewDraft>({ rating: review?.rating ?? 0, text: review?.text ?? '' });
  const [errors, setErrors] = useState<{ rating?: string; text?: string }>({});
  const save = useAsyncAction(async () => {
    const refused = reviewDraftErrors(draft);
    if (refused) {
      setErrors(refused);
      return;
    }
    try {
      const body = { rating: draft.rating, text: draft.text.trim() };
      const reply = review ? await updateReview(review._id, body) : await createReview(moveId, body);
      ui.toast(review ? 'Review changed' : 'Review saved');
      onSaved(reply.review);
    } catch (error) {
      const { fields, rest } = splitFieldErrors(isApiError(error) ? error.errors : null, { rating: 'rating', text: 'text' });
      setErrors(fields);
      if (rest || Object.keys(fields).length === 0) ui.showError(rest ?? error);
    }
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void save.run();
  };
  return (
    <Modal title={review ? `Your review of ${subjectName}` : `Review ${subjectName}`} onClose={onClose}>
      <form onSubmit={onSubmit} className="space-y-4">
        <div className="space-y-1.5">
          <StarPicker
            value={draft.rating}
            invalid={Boolean(errors.rating)}
            onChange={(rating) => {
              setErrors((current) => ({ ...current, rating: undefined }));
              setDraft((current) => ({ ...current, rating }));
            }}
          />
          {errors.rating && (
            <p role="alert" className="text-sm text-red-600">
              {errors.rating}
            </p>
          )}
        </div>
        <Field id="review-text" label="A few words (optional)" error={errors.text} hint={`${draft.text.length}/${REVIEW_TEXT_MAX}`}>
          <textarea
            id="review-text"
            rows={3}
            maxLength={REVIEW_TEXT_MAX}
            value={draft.text}
            placeholder="How did it go?"
            onChange={(event) => {
              const text = event.target.value;
              setDraft((current) => ({ ...current, text }));
            }}
            className={`${inputClass} h-auto py-2`}
          />
        </Field>
        <p className="text-xs text-slate-500">You can change it for {REVIEW_EDIT_DAYS} days. It shows on their profile; after an offer in a private group, its words only to the group's members.</p>
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" busy={save.busy}>
            {review ? 'Save changes' : 'Post review'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
