import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { GEOLOCATION_MESSAGES, INCIDENT_MESSAGES } from '@beacon/contracts';
import { NOT_AN_IMAGE_MESSAGE } from '@/common/image-upload';
import { inLanguage } from '@/test/in-language';
import { ReportIncidentPage } from './ReportIncidentPage';
import { json, mockApi, renderScreen, type Call } from './test-utils';

jest.mock('react-hot-toast', () => {
  const fn = Object.assign(jest.fn(), { success: jest.fn(), error: jest.fn() });
  return { __esModule: true, default: fn, toast: fn };
});

// Leaflet does not run in jsdom: the map becomes a button that "clicks" a point.
jest.mock('./LocationMap', () => ({
  __esModule: true,
  default: ({ onPick, label, value }: { onPick: (p: { lat: number; lng: number }) => void; label: string; value: { lat: number; lng: number } | null }) => (
    <div>
      <button type="button" onClick={() => onPick({ lat: 33.45, lng: -112.07 })}>
        {label}
      </button>
      <p>{value ? `marker at ${value.lat},${value.lng}` : 'no marker'}</p>
    </div>
  ),
}));

beforeEach(() => jest.clearAllMocks());

/** A file whose first bytes are a JPEG's (what the wizard sniffs at selection). */
const jpeg = (name: string) =>
  new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01])], name, { type: 'image/jpeg' });
const heading = () => screen.getByRole('heading', { level: 2 });
const next = () => screen.getByRole('button', { name: 'Next' });

function setup(answer: (call: Call) => Response | Promise<Response> = () => json({ items: [] }), options: Parameters<typeof userEvent.setup>[0] = {}) {
  const user = userEvent.setup(options);
  const calls = mockApi(answer);
  renderScreen(<ReportIncidentPage />, { path: '/dashboard/report-incident' });
  return { user, calls };
}

async function fillDetails(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('radio', { name: /Wrong-way Driver/ }));
  await user.type(screen.getByLabelText('Description'), 'Pickup driving north in the southbound lanes');
}

describe('Report Incident wizard', () => {
  it('shows three steps, starts on the details with Previous disabled and no Submit Report', () => {
    setup();
    expect(screen.getByRole('heading', { level: 1, name: 'Report Incident' })).toBeInTheDocument();
    const steps = within(screen.getByRole('list', { name: 'Steps' })).getAllByRole('listitem');
    expect(steps.map((s) => s.textContent)).toEqual(['1Incident Details', '2Location', '3Review']);
    expect(heading()).toHaveTextContent('Step 1 of 3: Incident Details');
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Submit Report' })).not.toBeInTheDocument();
    // every type with its label and description
    for (const label of ['Traffic Hazard', 'Crime', 'Accident', 'Wrong-way Driver', 'Other']) {
      expect(screen.getByRole('radio', { name: new RegExp(label) })).toBeInTheDocument();
    }
    expect(screen.getByText('A vehicle driving against traffic')).toBeInTheDocument();
  });

  it('keeps step 1 until a type and a 10-500 character description are given', async () => {
    const { user } = setup();
    await user.click(next());
    expect(heading()).toHaveTextContent('Step 1 of 3');
    expect(toast.error).toHaveBeenCalledWith(INCIDENT_MESSAGES.stepFields);
    expect(screen.getByText(INCIDENT_MESSAGES.typeRequired)).toBeInTheDocument();
    expect(screen.getByText(INCIDENT_MESSAGES.descriptionMin)).toBeInTheDocument();
    expect(screen.getByLabelText('Description')).toHaveAttribute('aria-invalid', 'true');

    await user.click(screen.getByRole('radio', { name: /Crime/ }));
    await user.type(screen.getByLabelText('Description'), '   short   ');
    await user.click(next());
    expect(screen.queryByText(INCIDENT_MESSAGES.typeRequired)).not.toBeInTheDocument();
    expect(screen.getByText(INCIDENT_MESSAGES.descriptionMin)).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Description'));
    await user.click(screen.getByLabelText('Description'));
    await user.paste('x'.repeat(501));
    expect(screen.getByText('501/500')).toBeInTheDocument();
    await user.click(next());
    expect(screen.getByText(INCIDENT_MESSAGES.descriptionMax)).toBeInTheDocument();
    expect(heading()).toHaveTextContent('Step 1 of 3');
  });

  it('checks the photo at selection: at most 5MB, and an image by its bytes, not its name', async () => {
    // the file dialog's filter is only a hint: a user can still pick any file
    const { user } = setup(undefined, { applyAccept: false });
    const input = screen.getByLabelText('Photo (optional)') as HTMLInputElement;
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.jpg', { type: 'image/jpeg' });
    await user.upload(input, big);
    expect(toast.error).toHaveBeenCalledWith(INCIDENT_MESSAGES.photoTooLarge);
    const page = new File(['<html></html>'], 'page.html', { type: 'text/html' });
    await user.upload(input, page);
    expect(toast.error).toHaveBeenCalledWith(INCIDENT_MESSAGES.invalidImage);

    // a text file renamed .png: the browser calls it image/png, its bytes say otherwise; said on the field, not only in a toast
    await user.upload(input, new File(['meeting notes, not a picture'], 'notes.png', { type: 'image/png' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(NOT_AN_IMAGE_MESSAGE));
    expect(await screen.findByText(NOT_AN_IMAGE_MESSAGE)).toHaveClass('field-error');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('notes.png')).not.toBeInTheDocument();

    await user.upload(input, jpeg('crash.jpg'));
    expect(await screen.findByText('crash.jpg')).toBeInTheDocument();
    expect(screen.queryByText(NOT_AN_IMAGE_MESSAGE)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove photo' }));
    expect(screen.queryByText('crash.jpg')).not.toBeInTheDocument();
  });

  it('needs a location on step 2, marks step 1 completed, and goes back with Previous', async () => {
    const { user } = setup();
    await fillDetails(user);
    await user.click(next());
    expect(heading()).toHaveTextContent('Step 2 of 3: Location');
    expect(screen.getByRole('listitem', { current: 'step' })).toHaveTextContent('Location');
    expect(screen.getByText('(completed)')).toBeInTheDocument();

    await user.click(next());
    expect(toast.error).toHaveBeenCalledWith(INCIDENT_MESSAGES.stepLocation);
    expect(screen.getByRole('alert')).toHaveTextContent(INCIDENT_MESSAGES.locationRequired);
    expect(heading()).toHaveTextContent('Step 2 of 3');

    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(heading()).toHaveTextContent('Step 1 of 3');
    expect(screen.getByLabelText('Description')).toHaveValue('Pickup driving north in the southbound lanes');
  });

  it('accepts a location picked on the map or typed', async () => {
    const { user } = setup();
    await fillDetails(user);
    await user.click(next());
    await user.click(screen.getByRole('button', { name: 'Incident location map' }));
    expect(screen.getByText('marker at 33.45,-112.07')).toBeInTheDocument();
    expect(screen.getByLabelText('Latitude')).toHaveValue(33.45);

    await user.clear(screen.getByLabelText('Longitude'));
    await user.click(next());
    expect(heading()).toHaveTextContent('Step 2 of 3');
    await user.type(screen.getByLabelText('Longitude'), '-112.1');
    await user.click(next());
    expect(heading()).toHaveTextContent('Step 3 of 3: Review');
  });

  it('detects the location with the spec settings and messages', async () => {
    const getCurrentPosition = jest.fn();
    Object.defineProperty(navigator, 'geolocation', { value: { getCurrentPosition }, configurable: true });
    const { user } = setup();
    await fillDetails(user);
    await user.click(next());

    getCurrentPosition.mockImplementationOnce((ok: PositionCallback) => ok({ coords: { latitude: 33.5, longitude: -112.01 } } as GeolocationPosition));
    await user.click(screen.getByRole('button', { name: /Use My Location/ }));
    expect(getCurrentPosition).toHaveBeenCalledWith(expect.any(Function), expect.any(Function), {
      enableHighAccuracy: true,
      timeout: 10_000,
      maximumAge: 300_000,
    });
    expect(toast.success).toHaveBeenCalledWith(GEOLOCATION_MESSAGES.detected);
    expect(await screen.findByText('marker at 33.5,-112.01')).toBeInTheDocument();

    getCurrentPosition.mockImplementationOnce((_ok: PositionCallback, fail: PositionErrorCallback) => fail({ code: 1 } as GeolocationPositionError));
    await user.click(screen.getByRole('button', { name: /Use My Location/ }));
    expect(toast.error).toHaveBeenCalledWith(GEOLOCATION_MESSAGES.failed);

    Object.defineProperty(navigator, 'geolocation', { value: undefined, configurable: true });
    delete (navigator as { geolocation?: unknown }).geolocation;
    await user.click(screen.getByRole('button', { name: /Use My Location/ }));
    expect(toast.error).toHaveBeenCalledWith(GEOLOCATION_MESSAGES.unsupported);
  });

  it('reviews, offers a possible duplicate, submits and returns to the dashboard', async () => {
    const { user, calls } = setup((call) => {
      if (call.path.endsWith('/possible-duplicates')) {
        return json({
          items: [
            {
              id: 'd1',
              type: 'wrong-way-driver',
              status: 'pending',
              distanceM: 30,
              createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
              description: null,
              locationName: null,
            },
          ],
        });
      }
      return json({ id: 'new-id', status: 'pending' }, 201);
    });
    await fillDetails(user);
    await user.click(next());
    await user.click(screen.getByRole('button', { name: 'Incident location map' }));
    await user.type(screen.getByLabelText('Location Name (optional)'), 'I-17 near Thomas Rd');
    await user.click(next());

    const review = screen.getByLabelText('Review your report');
    expect(review).toHaveTextContent('Wrong-way Driver');
    expect(review).toHaveTextContent('I-17 near Thomas Rd');
    const duplicate = await screen.findByRole('status', { name: 'Possible duplicate' });
    expect(duplicate).toHaveTextContent('Wrong-way Driver, 30 m away, 5m ago (pending)');
    expect(screen.getByText(/False reports may result in account suspension/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Submit Report' }));
    await waitFor(() => expect(screen.getByRole('status', { name: 'current path' })).toHaveTextContent('/dashboard'));
    expect(toast.success).toHaveBeenCalledWith(INCIDENT_MESSAGES.submitted);
    const create = calls.find((c) => c.method === 'POST')!;
    expect(create.path).toBe('/api/incidents/incidents');
    expect(create.body).toEqual({
      type: 'wrong-way-driver',
      description: 'Pickup driving north in the southbound lanes',
      locationName: 'I-17 near Thomas Rd',
      lat: 33.45,
      lng: -112.07,
      photoPath: null,
    });
  });

  it('says so when the report cannot be saved, and stays on the review', async () => {
    const { user } = setup((call) => (call.method === 'POST' ? json({ statusCode: 503, code: 'unavailable', message: 'down' }, 503) : json({ items: [] })));
    await fillDetails(user);
    await user.click(next());
    await user.click(screen.getByRole('button', { name: 'Incident location map' }));
    await user.click(next());
    await user.click(screen.getByRole('button', { name: 'Submit Report' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(INCIDENT_MESSAGES.submitFailed));
    expect(heading()).toHaveTextContent('Step 3 of 3');
  });

  it("shows the server's own reason when it refuses the photo, on the photo field, instead of the generic failure", async () => {
    const { user, calls } = setup((call) =>
      call.method === 'POST' ? json({ statusCode: 415, code: 'invalid_image', message: INCIDENT_MESSAGES.invalidImage }, 415) : json({ items: [] }),
    );
    await fillDetails(user);
    await user.upload(screen.getByLabelText(/Photo/), jpeg('damaged.jpg'));
    await screen.findByText('damaged.jpg');
    await user.click(next());
    await user.click(screen.getByRole('button', { name: 'Incident location map' }));
    await user.click(next());
    await user.click(screen.getByRole('button', { name: 'Submit Report' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(INCIDENT_MESSAGES.invalidImage));
    expect(toast.error).not.toHaveBeenCalledWith(INCIDENT_MESSAGES.submitFailed);
    // back on the details, the reason beside the photo; the report itself was never sent
    expect(heading()).toHaveTextContent('Step 1 of 3');
    expect(screen.getByText(INCIDENT_MESSAGES.invalidImage)).toHaveClass('field-error');
    expect(calls.filter((c) => c.path === '/api/incidents/incidents' && c.method === 'POST')).toHaveLength(0);
  });

  it("shows the server's message when it refuses the report itself", async () => {
    const message = 'The uploaded image was not found. Please upload it again.';
    const { user } = setup((call) =>
      call.method === 'POST'
        ? call.path === '/api/incidents/incidents'
          ? json({ statusCode: 400, code: 'upload_not_found', message }, 400)
          : json({ path: 'incident-photos/x/1.jpg' }, 201)
        : json({ items: [] }),
    );
    await fillDetails(user);
    await user.upload(screen.getByLabelText(/Photo/), jpeg('crash.jpg'));
    await screen.findByText('crash.jpg');
    await user.click(next());
    await user.click(screen.getByRole('button', { name: 'Incident location map' }));
    await user.click(next());
    await user.click(screen.getByRole('button', { name: 'Submit Report' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(message));
    expect(toast.error).not.toHaveBeenCalledWith(INCIDENT_MESSAGES.submitFailed);
    expect(heading()).toHaveTextContent('Step 3 of 3');
  });

  it.each([
    ['the photo upload', '/api/incidents/uploads/incident-photos'],
    ['the report', '/api/incidents/incidents'],
  ])("shows the limit's own message when %s is refused for too many requests", async (_what, limited) => {
    const message = 'Too many requests. Please try again in 12 minutes.';
    const { user } = setup((call) =>
      call.method === 'POST'
        ? call.path === limited
          ? json({ statusCode: 429, code: 'rate_limited', message }, 429)
          : json({ path: 'incident-photos/x/1.jpg' }, 201)
        : json({ items: [] }),
    );
    await fillDetails(user);
    await user.upload(screen.getByLabelText(/Photo/), jpeg('crash.jpg'));
    await screen.findByText('crash.jpg');
    await user.click(next());
    await user.click(screen.getByRole('button', { name: 'Incident location map' }));
    await user.click(next());
    await user.click(screen.getByRole('button', { name: 'Submit Report' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(message));
    expect(toast.error).not.toHaveBeenCalledWith(INCIDENT_MESSAGES.submitFailed);
    expect(heading()).toHaveTextContent('Step 3 of 3');
  });

  it('Back to Dashboard leaves the wizard', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: /Back to Dashboard/ }));
    expect(screen.getByRole('status', { name: 'current path' })).toHaveTextContent('/dashboard');
  });

  describe('in Spanish', () => {
    function setupEs(answer: (call: Call) => Response | Promise<Response> = () => json({ items: [] })) {
      const user = userEvent.setup();
      const calls = mockApi(answer);
      renderScreen(inLanguage('es', <ReportIncidentPage />), { path: '/dashboard/report-incident' });
      return { user, calls };
    }
    const siguiente = () => screen.getByRole('button', { name: 'Siguiente' });

    it('names the wizard, its steps, types and errors in Spanish', async () => {
      const { user } = setupEs();
      expect(screen.getByRole('heading', { level: 1, name: 'Reportar incidente' })).toBeInTheDocument();
      const steps = within(screen.getByRole('list')).getAllByRole('listitem');
      expect(steps.map((s) => s.textContent)).toEqual(['1Detalles del incidente', '2Ubicación', '3Revisión']);
      expect(heading()).toHaveTextContent('Paso 1 de 3: Detalles del incidente');
      expect(screen.getByRole('radio', { name: /Conductor en sentido contrario/ })).toBeInTheDocument();
      expect(screen.getByText('Un vehículo que circula en sentido contrario')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Anterior' })).toBeDisabled();

      await user.click(siguiente());
      expect(toast.error).toHaveBeenCalledWith('Complete todos los campos obligatorios');
      expect(screen.getByText('Seleccione un tipo de incidente')).toBeInTheDocument();
      expect(screen.getByText('La descripción debe tener al menos 10 caracteres')).toBeInTheDocument();
    });

    it('reviews and submits a report in Spanish', async () => {
      const { user } = setupEs((call) =>
        call.path.endsWith('/possible-duplicates')
          ? json({
              items: [
                {
                  id: 'd1',
                  type: 'wrong-way-driver',
                  status: 'pending',
                  distanceM: 30,
                  createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
                  description: null,
                  locationName: null,
                },
              ],
            })
          : json({ id: 'new-id', status: 'pending' }, 201),
      );
      await user.click(screen.getByRole('radio', { name: /Conductor en sentido contrario/ }));
      await user.type(screen.getByLabelText('Descripción'), 'Camioneta hacia el norte por los carriles del sur');
      await user.click(siguiente());
      expect(heading()).toHaveTextContent('Paso 2 de 3: Ubicación');
      await user.click(await screen.findByRole('button', { name: 'Mapa de la ubicación del incidente' }));
      await user.click(siguiente());

      expect(heading()).toHaveTextContent('Paso 3 de 3: Revisión');
      expect(screen.getByLabelText('Revise su reporte')).toHaveTextContent('Conductor en sentido contrario');
      const duplicate = await screen.findByRole('status', { name: 'Posible duplicado' });
      expect(duplicate).toHaveTextContent(/Conductor en sentido contrario, a 30 m, .+ \(pendiente\)/);
      await user.click(screen.getByRole('button', { name: 'Enviar reporte' }));
      await waitFor(() => expect(toast.success).toHaveBeenCalledWith('¡Incidente reportado!'));
    });
  });
});
