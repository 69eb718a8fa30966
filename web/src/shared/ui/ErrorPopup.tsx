import { ERROR_POPUP_TITLE } from '../constants';
import { Button } from './Button';
import { ErrorBox } from './ErrorBox';
import { Modal } from './Modal';

interface ErrorPopupProps {
  lines: readonly string[];
  title?: string;
  onClose: () => void;
}

export function ErrorPopup({ lines, title = ERROR_POPUP_TITLE, onClose }: ErrorPopupProps) {
  return (
    <Modal title={title} onClose={onClose} elevated>
      <ErrorBox lines={lines} />
      <div className="mt-6 flex justify-end">
        <Button onClick={onClose} data-autofocus>
          OK
        </Button>
      </div>
    </Modal>
  );
}
