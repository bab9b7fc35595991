import { Controller, Get } from '@nestjs/common';
import { Public } from '@beacon/auth';
import { CamerasRepository } from './cameras.repository';
import { ApiOperation, ApiReturns } from '@beacon/common';

/** Public: the cameras page and the anonymous map read these without a token. */
@Controller('cameras')
@Public()
export class CamerasController {
  constructor(private readonly cameras: CamerasRepository) {}

  /** All current cameras, ordered by roadway ascending. */
  @Get()
  @ApiReturns('Cameras')
  @ApiOperation('cameras.list', 'List traffic cameras', 'Every current camera, by roadway.')
  async list() {
    return { items: await this.cameras.listByRoadway() };
  }

  /** Current cameras with coordinates, for the map. */
  @Get('located')
  @ApiReturns('Cameras')
  @ApiOperation('cameras.listLocated', 'Cameras for the map', 'The current cameras that have coordinates.')
  async located() {
    return { items: await this.cameras.listLocated() };
  }
}
