import { renderHook } from '@testing-library/react';
import toast from 'react-hot-toast';
import { acceptedImage, isAcceptedImage, NOT_AN_IMAGE_MESSAGE, useImageUpload } from './image-upload';

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

/** Real first bytes of each format (what a camera or an editor writes), and files that only pretend. */
const JPEG = [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0];
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
const GIF = [...ascii('GIF89a'), 1, 0, 1, 0, 0, 0, 0];
const WEBP = [...ascii('RIFF'), 0x24, 0, 0, 0, ...ascii('WEBPVP8 '), 0x18, 0, 0, 0];
const HEIC = [0, 0, 0, 0x18, ...ascii('ftypheic'), 0, 0, 0, 0, ...ascii('mif1heic')];
const file = (bytes: number[] | string, name: string, type: string) => new File([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], name, { type });

describe('isAcceptedImage', () => {
  it.each([
    ['JPEG', JPEG],
    ['PNG', PNG],
    ['GIF', GIF],
    ['WebP', WEBP],
  ])('accepts a %s by its bytes, whatever its name and declared type', async (_format, bytes) => {
    await expect(isAcceptedImage(file(bytes, 'photo.jpg', 'image/jpeg'))).resolves.toBe(true);
    await expect(isAcceptedImage(file(bytes, 'no-extension', ''))).resolves.toBe(true);
  });

  it('refuses a text file named .png, an HTML page, an SVG, a HEIC photo and an empty file', async () => {
    await expect(isAcceptedImage(file('just some notes, not a picture', 'notes.png', 'image/png'))).resolves.toBe(false);
    await expect(isAcceptedImage(file('<html><body>hi</body></html>', 'page.jpg', 'image/jpeg'))).resolves.toBe(false);
    await expect(isAcceptedImage(file('<svg xmlns="http://www.w3.org/2000/svg"/>', 'logo.svg', 'image/svg+xml'))).resolves.toBe(false);
    await expect(isAcceptedImage(file(HEIC, 'IMG_0001.heic', 'image/heic'))).resolves.toBe(false);
    await expect(isAcceptedImage(file([], 'empty.gif', 'image/gif'))).resolves.toBe(false);
  });
});

describe('acceptedImage', () => {
  const input = (chosen: File) => {
    const el = document.createElement('input');
    el.type = 'file';
    Object.defineProperty(el, 'files', { value: [chosen] });
    return el;
  };
  const photoFile = file(JPEG, 'crash.jpg', 'image/jpeg');

  it('keeps a file the check accepts and whose bytes are an image', async () => {
    const onProblem = jest.fn();
    await expect(acceptedImage(input(photoFile), () => undefined, onProblem)).resolves.toBe(photoFile);
    expect(toast.error).not.toHaveBeenCalled();
    expect(onProblem).not.toHaveBeenCalled();
  });

  it("toasts the check's problem, hands it on and gives null", async () => {
    const onProblem = jest.fn();
    await expect(acceptedImage(input(photoFile), () => 'Too large', onProblem)).resolves.toBeNull();
    expect(toast.error).toHaveBeenCalledWith('Too large');
    expect(onProblem).toHaveBeenCalledWith('Too large');
  });

  it('refuses at selection a file that only claims to be an image, saying what is accepted', async () => {
    const onProblem = jest.fn();
    await expect(acceptedImage(input(file('hello, I am text', 'notes.png', 'image/png')), () => undefined, onProblem)).resolves.toBeNull();
    expect(NOT_AN_IMAGE_MESSAGE).toBe('Please select a valid image file. This file is not a JPEG, PNG, WebP or GIF photo.');
    expect(toast.error).toHaveBeenCalledWith(NOT_AN_IMAGE_MESSAGE);
    expect(onProblem).toHaveBeenCalledWith(NOT_AN_IMAGE_MESSAGE);
  });
});
