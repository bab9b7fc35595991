import { fireEvent, render, screen } from '@testing-library/react';
import type { Camera } from '@/features/traffic/traffic.api';
import { CameraModal } from './CameraModal';

const camera: Camera = {
  cameraId: 'c1',
  roadway: 'I-17',
  direction: 'Northbound',
  description: 'I-17 NB at Camelback Rd',
  lat: 33.5,
  lng: -112.1,
  imageUrl: '/api/traffic/camera-images/1.svg',
  lastUpdated: '2024-03-05T15:07:00',
};

describe('CameraModal', () => {
  it('shows the image, description, last update and a full-size link opening a new tab safely', () => {
    render(<CameraModal camera={camera} onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'I-17 Northbound' });
    expect(dialog).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Illustration of a traffic camera view: I-17 Northbound' })).toHaveAttribute('src', camera.imageUrl);
    expect(screen.getByText(/not a photo from the camera/)).toBeInTheDocument();
    expect(screen.getByText('I-17 NB at Camelback Rd')).toBeInTheDocument();
    expect(screen.getByText('Last updated: Mar 5, 2024 3:07 PM')).toBeInTheDocument();
    const link = screen.getByRole('link', { name: 'View Full Size' });
    expect(link).toHaveAttribute('href', camera.imageUrl);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus();
  });

  it("shows 'Camera feed unavailable' when the image fails to load", () => {
    render(<CameraModal camera={camera} onClose={() => undefined} />);
    fireEvent.error(screen.getByRole('img'));
    expect(screen.getByText('Camera feed unavailable')).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'View Full Size' })).not.toBeInTheDocument();
  });

  it("shows 'Camera feed unavailable' straight away for a camera the rules mark unavailable", () => {
    render(<CameraModal camera={{ ...camera, description: 'Camera offline for maintenance' }} onClose={() => undefined} />);
    expect(screen.getByText('Camera feed unavailable')).toBeInTheDocument();
  });

  it('closes on Escape, on Close and on the backdrop, not on a click inside', () => {
    const onClose = jest.fn();
    const { container } = render(<CameraModal camera={camera} onClose={onClose} />);
    fireEvent.click(screen.getByRole('dialog'));
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.keyDown(document, { key: 'Escape' });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    fireEvent.click(container.querySelector('.modal-backdrop')!);
    expect(onClose).toHaveBeenCalledTimes(3);
  });
});
