import { Controller, Get } from '@nestjs/common';
import { Public } from '@beacon/auth';
import { CamerasRepository } from './cameras.repository';
import { ApiReturns } from '@beacon/common';

/** Public: the cameras page and the anonymous map read these without a token. */
@Controller('cameras')
@Public()
export class CamerasController {
  constructor(private readonly cameras: CamerasRepository) {}

  /** All current cameras, ordered by roadway ascending. */
  @Get()
  @ApiReturns('Cameras')
  async list() {
    return { items: await this.cameras.listByRoadway() };
  }

  /** Current cameras with coordinates, for the map. */
  @Get('located')
  @ApiReturns('Cameras')
  async located() {
    return { items: await this.cameras.listLocated() };
  }
}
