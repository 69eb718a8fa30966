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
}: ConfirmDialogProps) {
  return (
    <Modal title={title} onClose={onCancel}>
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
