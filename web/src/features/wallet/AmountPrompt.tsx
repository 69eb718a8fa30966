import { useId, useState, type FormEvent } from 'react';
import { currencyName } from '../../shared/currency';
import { Button } from '../../shared/ui/Button';
import { Modal } from '../../shared/ui/Modal';
import { TextField } from '../../shared/ui/TextField';
import { parseAmountText } from './wallets';

interface AmountPromptProps {
  title: string;
  currency: string;
  /** The field's first text. */
  initial: string;
  hint?: string;
  submitLabel: string;
  /** Why a well-formed amount is refused here (too small, more than there is), or null. */
  refusal: (amount: number) => string | null;
  onEnter: (amount: number) => void;
  onCancel: () => void;
}

/** Asks for an amount of money in a dialog: a positive number with at most 2 decimals that `refusal` accepts. */
export function AmountPrompt({ title, currency, initial, hint, submitLabel, refusal, onEnter, onCancel }: AmountPromptProps) {
  const id = useId();
  const [text, setText] = useState(initial);
  const [error, setError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseAmountText(text);
    const refused = 'error' in parsed ? parsed.error : refusal(parsed.amount);
    if (refused !== null) setError(refused);
    else if ('amount' in parsed) onEnter(parsed.amount);
  };

  return (
    <Modal title={title} onClose={onCancel}>
      <form onSubmit={submit} noValidate>
        <TextField
          id={id}
          label={`Amount in ${currencyName(currency)}`}
          inputMode="decimal"
          value={text}
          error={error}
          hint={hint}
          onChange={(event) => {
            setText(event.target.value);
            setError(undefined);
          }}
          data-autofocus
        />
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit">{submitLabel}</Button>
        </div>
      </form>
    </Modal>
  );
}
