import { renderHook } from '@testing-library/react';
import toast from 'react-hot-toast';
import { acceptedImage, useImageUpload } from './image-upload';

jest.mock('react-hot-toast', () => {
  const fn = Object.assign(jest.fn(), { success: jest.fn(), error: jest.fn() });
  return { __esModule: true, default: fn, toast: fn };
});

const mockUpload = jest.fn();
jest.mock('./uploads.api', () => ({ useUploadImageMutation: () => [mockUpload] }));

beforeEach(() => jest.clearAllMocks());

const photo = new File([new Uint8Array(10)], 'crash.jpg', { type: 'image/jpeg' });
const answer = (result: Promise<unknown>) => mockUpload.mockReturnValueOnce({ unwrap: () => result });

describe('useImageUpload', () => {
  it('uploads to the bucket and resolves the stored path; no image, no upload', async () => {
    const onRefused = jest.fn();
    const { result } = renderHook(() => useImageUpload('incident-photos', onRefused));
    await expect(result.current(null)).resolves.toBeNull();
    expect(mockUpload).not.toHaveBeenCalled();

    answer(Promise.resolve({ path: 'incident-photos/abc.jpg' }));
    await expect(result.current(photo)).resolves.toBe('incident-photos/abc.jpg');
    expect(mockUpload).toHaveBeenCalledWith({ bucket: 'incident-photos', file: photo });
    expect(onRefused).not.toHaveBeenCalled();
  });

  it('hands a refusal of the file itself to the form, and still rejects', async () => {
    const onRefused = jest.fn();
    const { result } = renderHook(() => useImageUpload('community-post-photos', onRefused));
    for (const code of ['invalid_image', 'file_too_large']) {
      const refusal = { statusCode: 400, code, message: `refused: ${code}` };
      answer(Promise.reject(refusal));
      await expect(result.current(photo)).rejects.toBe(refusal);
      expect(onRefused).toHaveBeenLastCalledWith(`refused: ${code}`);
    }
  });

  it("leaves other failures to the form's own error handling", async () => {
    const onRefused = jest.fn();
    const { result } = renderHook(() => useImageUpload('incident-photos', onRefused));
    const down = { statusCode: 0, code: 'network_error', message: 'Could not reach Beacon.' };
    answer(Promise.reject(down));
    await expect(result.current(photo)).rejects.toBe(down);
    expect(onRefused).not.toHaveBeenCalled();
  });
});

describe('acceptedImage', () => {
  const input = (file: File) => {
    const el = document.createElement('input');
    el.type = 'file';
    Object.defineProperty(el, 'files', { value: [file] });
    return el;
  };

  it('keeps a file the check accepts', () => {
    expect(acceptedImage(input(photo), () => undefined)).toBe(photo);
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('toasts the problem and gives null for a file the check refuses', () => {
    expect(acceptedImage(input(photo), () => 'Too large')).toBeNull();
    expect(toast.error).toHaveBeenCalledWith('Too large');
  });
});
