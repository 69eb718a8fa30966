import { ERROR_POPUP_TITLE } from '../constants';
import { Button } from './Button';
import { Modal } from './Modal';

interface ErrorPopupProps {
  lines: readonly string[];
  title?: string;
  onClose: () => void;
}

export function ErrorPopup({ lines, title = ERROR_POPUP_TITLE, onClose }: ErrorPopupProps) {
  return (
    <Modal title={title} onClose={onClose} elevated>
      <div role="alert" className="space-y-1 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
        {lines.map((line, index) => (
          <p key={index} className="break-words">
            {line}
          </p>
        ))}
      </div>
      <div className="mt-6 flex justify-end">
        <Button onClick={onClose} data-autofocus>
          OK
        </Button>
      </div>
    </Modal>
  );
}
