import { Module } from '@nestjs/common';
import { ContactGroupAuditRepository } from './contact-group-audit.repository';
import { ContactGroupsController } from './contact-groups.controller';
import { ContactGroupsRepository } from './contact-groups.repository';
import { ContactGroupsService } from './contact-groups.service';

/** Contact groups (issue #42): the console's API. The sends to groups will read the same tables from the dispatcher. */
@Module({
  controllers: [ContactGroupsController],
  providers: [ContactGroupsService, ContactGroupsRepository, ContactGroupAuditRepository],
})
export class ContactGroupsModule {}
