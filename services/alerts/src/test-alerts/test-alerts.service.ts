import { Injectable } from '@nestjs/common';
import { AppError, badRequest, notFound } from '@beacon/common';
import { CHANNEL_LABELS, DELIVERY_CHANNELS, TestGroup, TestGroupMembership, TestSchedule } from '@beacon/contracts';
import type { Actor } from '../alerts/audit.repository';
import { capMessage, CapSite } from '../cap/cap.xml';
import { AlertsDeliveryEnv } from '../config/delivery-env';
import { isTimeZone } from '../preferences/time-zone';
import { SettingsRepository } from '../settings/settings.repository';
import { TestScheduleDto } from './dto/test-schedule.dto';
import { nextRunAfter } from './next-run';
import { channelEnabled } from './test-channels';
import { ScheduleSettings, TestAlertsRepository } from './test-alerts.repository';

/**
 * The recurring test alert's settings (issue #38): the schedule (admins), the staff test group it goes to (each staff
 * member names themselves; admins see the list and may take someone out), and the CAP of a test alert (status Test).
 */
@Injectable()
export class TestAlertsService {
  private readonly site: CapSite;

  constructor(
    private readonly repo: TestAlertsRepository,
    private readonly settings: SettingsRepository,
    env: AlertsDeliveryEnv,
  ) {
    this.site = new CapSite(env.PUBLIC_URL);
  }

  schedule(): Promise<TestSchedule> {
    return this.repo.schedule();
  }

  /** Saves the fields given over the saved ones; the next run is computed afresh from now. */
  async updateSchedule(dto: TestScheduleDto, by: Actor): Promise<TestSchedule> {
    const saved = await this.repo.schedule();
    const next: ScheduleSettings = {
      frequency: dto.frequency ?? saved.frequency,
      weekday: dto.weekday ?? saved.weekday,
      time: dto.time ?? saved.time,
      timeZone: dto.timeZone ?? saved.timeZone,
      channels: dto.channels ?? saved.channels,
    };
    if (!isTimeZone(next.timeZone)) throw badRequest('Time zone must be an IANA time zone, e.g. America/New_York', 'invalid_time_zone');
    if (next.frequency !== 'off') {
      if (!next.channels.length) throw badRequest('Choose at least one channel for the test alert to go out on', 'test_channels_required');
      const settings = await this.settings.get();
      const off = next.channels.filter((c) => !channelEnabled(settings, c));
      if (off.length) {
        const names = off.map((c) => CHANNEL_LABELS[c]).join(' and ');
        throw badRequest(
          `${names} ${off.length > 1 ? 'are' : 'is'} turned off in the channel settings: turn it on, or leave it out of the test`,
          'test_channel_disabled',
        );
      }
    }
    await this.repo.saveSchedule(next, nextRunAfter(next, new Date()), by);
    return this.repo.schedule();
  }

  /** The group, each member with the schedule's channels that reach them (every channel while none is chosen). */
  async group(): Promise<TestGroup> {
    const { channels } = await this.repo.schedule();
    return { members: await this.repo.members(channels.length ? channels : DELIVERY_CHANNELS) };
  }

  membership(userId: string): Promise<TestGroupMembership> {
    return this.repo.membership(userId);
  }

  async setMembership(user: { id: string; email: string | null }, member: boolean): Promise<TestGroupMembership> {
    if (member) await this.repo.join(user.id, user.email);
    else await this.repo.leave(user.id);
    return this.repo.membership(user.id);
  }

  /** An admin takes someone out of the group (who may opt in again). */
  async remove(userId: string): Promise<TestGroup> {
    if (!(await this.repo.leave(userId))) {
      throw new AppError(404, 'test_group_member_not_found', 'This person is not in the staff test group');
    }
    return this.group();
  }

  /** A test alert's CAP message, status Test: never in the public feed, for admins checking what a test says. */
  async cap(alertId: string): Promise<string> {
    const alert = await this.repo.testAlertForCap(alertId);
    if (!alert) throw notFound('Test alert', 'alert_not_found');
    return capMessage(alert, this.site);
  }
}
