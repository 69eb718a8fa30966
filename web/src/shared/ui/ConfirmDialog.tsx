import type { ReactNode } from 'react';
import { Button } from './Button';
import { Modal } from './Modal';

interface ConfirmDialogProps {
  title: string;
  /** The question, under the title. */
  children?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** Focus the cancel button first, for questions where a hasty Enter must change nothing. */
  focusCancel?: boolean;
  /** Over another dialog (a question asked from inside a form in a dialog). */
  elevated?: boolean;
}

/** A yes/no question in a dialog, for steps worth a second look (money moving). */
export function ConfirmDialog({
  title,
  children,
  confirmLabel = 'Confirm',
  cancelLabel = 'Cancel',
  onConfirm,
  onCancel,
  focusCancel = false,
  elevated,
}: ConfirmDialogProps) {
  return (
    <Modal title={title} onClose={onCancel} elevated={elevated}>
      {children && <div className="text-sm text-slate-600">{children}</div>}
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel} data-autofocus={focusCancel || undefined}>
          {cancelLabel}
        </Button>
        <Button onClick={onConfirm} data-autofocus={!focusCancel || undefined}>
          {confirmLabel}
        </Button>
      </div>
    </Modal>
  );
}
