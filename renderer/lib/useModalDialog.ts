import { useEffect, useRef, type SyntheticEvent } from 'react';

/**
 * Props for a `<dialog>` shown as a modal while its component is mounted.
 *
 * The pages unmount a dialog rather than close() it, so the browser never hands focus back:
 * the element that had it when the dialog opened (the button that opened it) gets it again,
 * and a keyboard user goes on from there. Escape does not close natively; it calls `onEscape`,
 * so the owner decides (no closing while an act runs).
 */
export function useModalDialog(onEscape: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const opener = document.activeElement;
    const d = ref.current;
    if (d !== null && !d.open) d.showModal();
    return () => {
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, []);
  const onCancel = (e: SyntheticEvent<HTMLDialogElement>) => {
    e.preventDefault();
    onEscape();
  };
  return { ref, onCancel };
}
