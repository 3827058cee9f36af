# Writes the hand-made rocprofv3 samples of this folder: python3 make_samples.py
import json, os, csv, io
import sys
base=os.path.dirname(os.path.abspath(sys.argv[0]))
T0=1_000_000_000
agents=[(n, 'CPU' if n<4 else 'GPU') for n in range(12)]
hip=[]  # (corr, name, start, end)
rccl=[] # (corr, name, start, end, args): RCCL_API records (--rccl-trace)
rhip,rkern=[],[] # RCCL's own HIP calls and kernels: only the JSON and rocpd samples hold RCCL
kern=[] # (corr, gpu node, stream, queue, name, start, end, grid, wg)
copies=[] # (corr, src node, dst node, bytes, stream, start, end, dir)
t=T0
def call(name, dur):
    global t
    c=len(hip)+len(rccl)+len(rhip)+1
    hip.append((c,name,t,t+dur)); t+=dur+2000
    return c, t-dur-2000
def rccl_call(name, dur, args):
    global t
    c=len(hip)+len(rccl)+len(rhip)+1
    rccl.append((c,name,t,t+dur,args)); t+=dur+2000
    return c, t-dur-2000
for i in range(3): call('hipMalloc', 5000)
c,s=call('hipMemcpyAsync', 4000); copies.append((c,0,4,64<<20,0xA1,s+10000,s+10000+2_600_000,'HOST_TO_DEVICE'))
c,s=call('hipLaunchKernel', 6000); kern.append((c,4,0xA1,0x51,'vector_add(float const*, float const*, float*, int)',s+2_620_000,s+2_770_000,1048576,256))
call('hipEventRecord', 1500)
c,s=call('hipMemcpyPeerAsync', 4000); copies.append((c,4,5,32<<20,0xB2,s+8000,s+8000+700_000,'DEVICE_TO_DEVICE'))
call('hipStreamWaitEvent', 1200)
c,s=call('hipLaunchKernel', 5000); kern.append((c,5,0xB2,0x62,'reduce_kernel(float const*, float*)',s+2_800_000,s+2_880_000,65536,256))
call('hipStreamSynchronize', 2_900_000)
c,s=call('hipMemcpy', 700_000); copies.append((c,5,0,16<<20,0,s+5000,s+690_000,'DEVICE_TO_HOST'))
call('hipDeviceSynchronize', 3000)
# an all-reduce of 1 Mi floats over GCDs 0 and 1 (ncclCommInitAll, one
# thread, a group): RCCL launches its kernels inside ncclGroupEnd, through
# HIP calls nested in it on the same thread
rccl_call('ncclCommInitAll', 50_000, [('ncclComm_t*','comms','0x7ffd00003000'),('int','ndev','2'),('const int*','devlist','0x0')])
rccl_call('ncclGroupStart', 1000, [])
for g,(sb,st) in enumerate([(0x7f2200000000,0x1a2b),(0x7f3300000000,0x3c4d)]):
    rccl_call('ncclAllReduce', 3000, [('const void*','sendbuff','0x%x'%sb),('void*','recvbuff','0x%x'%sb),('size_t','count','1048576'),
      ('ncclDataType_t','datatype','7'),('ncclRedOp_t','op','0'),('ncclComm*','comm','0x5%d00'%g),('hipStream_t','stream','0x%x'%st)])
ge,gs=rccl_call('ncclGroupEnd', 30_000, [])
for g,(node,st,q) in enumerate([(4,0xA1,0x51),(5,0xB2,0x62)]):
    c=len(hip)+len(rccl)+len(rhip)+1
    s0=gs+2000+g*12_000
    rhip.append((c,'hipExtLaunchKernel',s0,s0+8000))
    rkern.append((c,node,st,q,'ncclDevKernel_Generic(ncclDevComm*, unsigned long, ncclWork*)',gs+40_000,gs+340_000,256,256))
c=len(hip)+len(rccl)+len(rhip)+1
rhip.append((c,'hipDeviceSynchronize',t,t+320_000)); t+=322_000
for i in range(3): call('hipFree', 4000)

# agent_info.csv (53 columns, rocprofiler-sdk generateCSV)
cols="Node_Id,Logical_Node_Id,Agent_Type,Cpu_Cores_Count,Simd_Count,Cpu_Core_Id_Base,Simd_Id_Base,Max_Waves_Per_Simd,Lds_Size_In_Kb,Gds_Size_In_Kb,Num_Gws,Wave_Front_Size,Num_Xcc,Cu_Count,Array_Count,Num_Shader_Banks,Simd_Arrays_Per_Engine,Cu_Per_Simd_Array,Simd_Per_Cu,Max_Slots_Scratch_Cu,Gfx_Target_Version,Vendor_Id,Device_Id,Location_Id,Domain,Drm_Render_Minor,Num_Sdma_Engines,Num_Sdma_Xgmi_Engines,Num_Sdma_Queues_Per_Engine,Num_Cp_Queues,Max_Engine_Clk_Ccompute,Max_Engine_Clk_Fcompute,Sdma_Fw_Version,Fw_Version,Capability,Cu_Per_Engine,Max_Waves_Per_Cu,Family_Id,Workgroup_Max_Size,Grid_Max_Size,Local_Mem_Size,Hive_Id,Gpu_Id,Workgroup_Max_Dim_X,Workgroup_Max_Dim_Y,Workgroup_Max_Dim_Z,Grid_Max_Dim_X,Grid_Max_Dim_Y,Grid_Max_Dim_Z,Name,Vendor_Name,Product_Name,Model_Name".split(',')
assert len(cols)==53
def agent_rows():
    out=io.StringIO(); w=csv.writer(out, quoting=csv.QUOTE_NONNUMERIC, lineterminator='\n')
    w.writerow(cols)
    for n,typ in agents:
        row=[0]*53
        row[0]=n; row[1]=n; row[2]=typ
        if typ=='CPU':
            row[3]=16; row[49]='AMD EPYC 7A53 64-Core Processor'; row[50]='CPU'; row[51]=row[49]; row[52]=''
        else:
            row[4]=440; row[13]=110; row[26]=2; row[27]=6; row[42]=1000+n; row[49]='gfx90a'; row[50]='AMD'; row[51]='AMD Instinct MI250X'; row[52]='aldebaran'
        w.writerow(row)
    return out.getvalue()

def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path,'w').write(text)

def rows(header, rs):
    out=io.StringIO(); w=csv.writer(out, quoting=csv.QUOTE_NONNUMERIC, lineterminator='\n')
    w.writerow(header)
    for r in rs: w.writerow(r)
    return out.getvalue()

# ROCm 6.3/6.4: 18-column kernel_trace, 7-column memory_copy_trace, integer agent ids
d=f'{base}/rocprofv3-csv18/node01'
write(f'{d}/4242_agent_info.csv', agent_rows())
kh="Kind,Agent_Id,Queue_Id,Thread_Id,Dispatch_Id,Kernel_Id,Kernel_Name,Correlation_Id,Start_Timestamp,End_Timestamp,Private_Segment_Size,Group_Segment_Size,Workgroup_Size_X,Workgroup_Size_Y,Workgroup_Size_Z,Grid_Size_X,Grid_Size_Y,Grid_Size_Z".split(',')
write(f'{d}/4242_kernel_trace.csv', rows(kh, [['KERNEL_DISPATCH',g,q,4242,i+1,i+7,n,c,s,e,0,0,wg,1,1,gr,1,1] for i,(c,g,st,q,n,s,e,gr,wg) in enumerate(kern)]))
ch="Kind,Direction,Source_Agent_Id,Destination_Agent_Id,Correlation_Id,Start_Timestamp,End_Timestamp".split(',')
write(f'{d}/4242_memory_copy_trace.csv', rows(ch, [['MEMORY_COPY','MEMORY_COPY_'+dr,sa,da,c,s,e] for (c,sa,da,b,st,s,e,dr) in copies]))
hh="Domain,Function,Process_Id,Thread_Id,Correlation_Id,Start_Timestamp,End_Timestamp".split(',')
write(f'{d}/4242_hip_api_trace.csv', rows(hh, [['HIP_RUNTIME_API',n,4242,4242,c,s,e] for (c,n,s,e) in hip]))

# ROCm 7.0: 22-column kernel_trace, Stream_Id, "Agent N" ids
d=f'{base}/rocprofv3-csv22/node01'
write(f'{d}/4242_agent_info.csv', agent_rows())
kh="Kind,Agent_Id,Queue_Id,Stream_Id,Thread_Id,Dispatch_Id,Kernel_Id,Kernel_Name,Correlation_Id,Start_Timestamp,End_Timestamp,LDS_Block_Size,Scratch_Size,VGPR_Count,Accum_VGPR_Count,SGPR_Count,Workgroup_Size_X,Workgroup_Size_Y,Workgroup_Size_Z,Grid_Size_X,Grid_Size_Y,Grid_Size_Z".split(',')
write(f'{d}/4242_kernel_trace.csv', rows(kh, [['KERNEL_DISPATCH',f'Agent {g}',q,st,4242,i+1,i+7,n,c,s,e,0,0,32,0,24,wg,1,1,gr,1,1] for i,(c,g,st,q,n,s,e,gr,wg) in enumerate(kern)]))
ch="Kind,Direction,Stream_Id,Source_Agent_Id,Destination_Agent_Id,Correlation_Id,Start_Timestamp,End_Timestamp".split(',')
write(f'{d}/4242_memory_copy_trace.csv', rows(ch, [['MEMORY_COPY','MEMORY_COPY_'+dr,st,f'Agent {sa}',f'Agent {da}',c,s,e] for (c,sa,da,b,st,s,e,dr) in copies]))
write(f'{d}/4242_hip_api_trace.csv', rows(hh, [['HIP_RUNTIME_API_EXT',n,4242,4242,c,s,e] for (c,n,s,e) in hip]))

# JSON (7.0 keys), agents by handle = node + 300
hip_all=sorted(hip+rhip, key=lambda h: h[2]); kern_all=kern+rkern
names=sorted(set(n for (_,n,_,_) in hip_all))
rccl_ops=sorted(set(n for (_,n,_,_,_) in rccl))
ops=['NONE']+names
kinds=[{'kind':'NONE','operations':[]},{'kind':'HSA_CORE_API','operations':[]},{'kind':'HIP_RUNTIME_API_EXT','operations':ops},
       {'kind':'KERNEL_DISPATCH','operations':['NONE','KERNEL_DISPATCH_COMPLETE']},{'kind':'MEMORY_COPY','operations':['MEMORY_COPY_NONE','MEMORY_COPY_HOST_TO_HOST','MEMORY_COPY_HOST_TO_DEVICE','MEMORY_COPY_DEVICE_TO_HOST','MEMORY_COPY_DEVICE_TO_DEVICE']},
       {'kind':'RCCL_API','operations':rccl_ops}]
H=lambda n: {'handle': n+300}
ksym=[{'kernel_id':0,'kernel_name':'','formatted_kernel_name':''}]
for i,(c,g,st,q,n,s,e,gr,wg) in enumerate(kern_all):
    ksym.append({'size':128,'kernel_id':i+1,'code_object_id':1,'kernel_name':'_Z'+str(i),'formatted_kernel_name':n,'demangled_kernel_name':n,'truncated_kernel_name':n.split('(')[0]})
opid={'HOST_TO_HOST':1,'HOST_TO_DEVICE':2,'DEVICE_TO_HOST':3,'DEVICE_TO_DEVICE':4}
# 7.0's API records carry the call's stream (stream_id) and its arguments (args)
streams={'hipMemcpyAsync':0xA1,'hipEventRecord':0xA1,'hipMemcpyPeerAsync':0xB2,'hipStreamWaitEvent':0xB2,'hipStreamSynchronize':0xB2,'hipMemcpy':0}
launches=[0xA1,0xB2,0xA1,0xB2]
def api_record(c,n,s,e):
    r={'size':64,'kind':2,'operation':ops.index(n),'correlation_id':{'internal':c,'external':0,'ancestor':0},'start_timestamp':s,'end_timestamp':e,'thread_id':4242}
    st=streams.get(n)
    if n in ('hipLaunchKernel','hipExtLaunchKernel'):
        st=launches.pop(0)
    if st is not None:
        r['stream_id']={'handle':st}
    if n in ('hipEventRecord','hipStreamWaitEvent'):
        r['args']=[{'type':'hipEvent_t','name':'event','value':'0x5e00'},{'type':'hipStream_t','name':'stream','value':'0x%x' % st}]
    return r
proc={'metadata':{'pid':4242,'init_time':T0-1000,'fini_time':t+1000,'command':['./app']},
  'agents':[{'size':512,'id':H(n),'type':1 if typ=='CPU' else 2,'cu_count':110 if typ=='GPU' else 0,'name':'gfx90a' if typ=='GPU' else 'AMD EPYC 7A53','node_id':n,'logical_node_id':n,'logical_node_type_id':n if n<4 else n-4,'gpu_index':-1 if n<4 else n-4} for n,typ in agents],
  'counters':[],
  'strings':{'callback_records':[],'buffer_records':kinds,'marker_api':[]},
  'kernel_symbols':ksym,
  'buffer_records':{
    'kernel_dispatch':[{'size':96,'kind':3,'operation':1,'thread_id':4242,'correlation_id':{'internal':c,'external':0,'ancestor':0},'start_timestamp':s,'end_timestamp':e,
        'dispatch_info':{'size':64,'agent_id':H(g),'queue_id':{'handle':q},'kernel_id':i+1,'dispatch_id':i+1,'private_segment_size':0,'group_segment_size':0,'workgroup_size':{'x':wg,'y':1,'z':1},'grid_size':{'x':gr,'y':1,'z':1}},
        'stream_id':{'handle':st}} for i,(c,g,st,q,n,s,e,gr,wg) in enumerate(kern_all)],
    'memory_copy':[{'size':80,'kind':4,'operation':opid[dr],'thread_id':4242,'correlation_id':{'internal':c,'external':0},'start_timestamp':s,'end_timestamp':e,
        'dst_agent_id':H(da),'src_agent_id':H(sa),'bytes':b,'stream_id':{'handle':st}} for (c,sa,da,b,st,s,e,dr) in copies],
    'hip_api':[api_record(c,n,s,e) for (c,n,s,e) in hip_all],
    'rccl_api':[{'size':48,'kind':5,'operation':rccl_ops.index(n),'correlation_id':{'internal':c,'external':0,'ancestor':0},'start_timestamp':s,'end_timestamp':e,'thread_id':4242} for (c,n,s,e,a) in rccl],
    'memory_allocation':[],'hsa_api':[],'marker_api':[],'scratch_memory':[]}}
write(f'{base}/rocprofv3-json/node01/4242_results.json', json.dumps({'rocprofiler-sdk-tool':[proc]}, indent=1)+'\n')
print(len(hip), len(kern), len(copies))

# rocpd (ROCm 7.0 SQLite; rocpd_tables.sql columns, tables suffixed by the run's UUID, unsuffixed views)
import sqlite3
path=f'{base}/rocprofv3-rocpd/node01/4242_results.db'
os.makedirs(os.path.dirname(path), exist_ok=True)
if os.path.exists(path): os.remove(path)
db=sqlite3.connect(path)
U='_0000ddb5_8903_7903_b269_cd8d3745bb8a'
G='0000ddb5-8903-7903-b269-cd8d3745bb8a'
tables={
 'rocpd_metadata':'id INTEGER PRIMARY KEY AUTOINCREMENT, tag TEXT, value TEXT',
 'rocpd_string':'id INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT, string TEXT UNIQUE',
 'rocpd_info_agent':"id INTEGER PRIMARY KEY, guid TEXT, nid INT, pid INT, type TEXT CHECK (type IN ('CPU','GPU')), absolute_index INT, logical_index INT, type_index INT, uuid INT, name TEXT, model_name TEXT, vendor_name TEXT, product_name TEXT, user_name TEXT, extdata JSONB DEFAULT '{}'",
 'rocpd_info_kernel_symbol':"id INTEGER PRIMARY KEY, guid TEXT, nid INT, pid INT, code_object_id INT, kernel_name TEXT, display_name TEXT, kernel_object INT, kernarg_segment_size INT, kernarg_segment_alignment INT, group_segment_size INT, private_segment_size INT, sgpr_count INT, arch_vgpr_count INT, accum_vgpr_count INT, extdata JSONB DEFAULT '{}'",
 'rocpd_event':"id INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT, category_id INT, stack_id INT, parent_stack_id INT, correlation_id INT, call_stack JSONB DEFAULT '{}', line_info JSONB DEFAULT '{}', extdata JSONB DEFAULT '{}'",
 'rocpd_region':"id INTEGER PRIMARY KEY, guid TEXT, nid INT, pid INT, tid INT, start BIGINT, end BIGINT, name_id INT, event_id INT, extdata JSONB DEFAULT '{}'",
 'rocpd_arg':"id INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT, event_id INT, position INT, type TEXT, name TEXT, value TEXT, extdata JSONB DEFAULT '{}'",
 'rocpd_kernel_dispatch':"id INTEGER PRIMARY KEY, guid TEXT, nid INT, pid INT, tid INT, agent_id INT NOT NULL, kernel_id INT NOT NULL, dispatch_id INT NOT NULL, queue_id INT NOT NULL, stream_id INT NOT NULL, start BIGINT, end BIGINT, private_segment_size INT, group_segment_size INT, workgroup_size_x INT NOT NULL, workgroup_size_y INT NOT NULL, workgroup_size_z INT NOT NULL, grid_size_x INT NOT NULL, grid_size_y INT NOT NULL, grid_size_z INT NOT NULL, region_name_id INT, event_id INT, extdata JSONB DEFAULT '{}'",
 'rocpd_memory_copy':"id INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT, nid INT, pid INT, tid INT, start BIGINT, end BIGINT, name_id INT, dst_agent_id INT, dst_address INT, src_agent_id INT, src_address INT, size INT NOT NULL, queue_id INT, stream_id INT, region_name_id INT, event_id INT, extdata JSONB DEFAULT '{}'",
}
for t,cols in tables.items():
    db.execute(f'CREATE TABLE {t}{U} ({cols})')
    db.execute(f'CREATE VIEW {t} AS SELECT * FROM {t}{U}')
db.executemany(f'INSERT INTO rocpd_metadata{U} (tag, value) VALUES (?,?)', [('schema_version','3'),('uuid',U),('guid',G)])
strs={}
def sid(s):
    if s not in strs:
        cur=db.execute(f'INSERT INTO rocpd_string{U} (guid,string) VALUES (?,?)',(G,s)); strs[s]=cur.lastrowid
    return strs[s]
for n,typ in agents:
    db.execute(f'INSERT INTO rocpd_info_agent{U} (id,guid,nid,pid,type,absolute_index,logical_index,type_index,uuid,name,model_name,vendor_name,product_name,user_name) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)',
      (n,G,1,4242,typ,n,n,n if n<4 else n-4,0,'gfx90a' if typ=='GPU' else 'AMD EPYC 7A53','aldebaran' if typ=='GPU' else '','AMD','AMD Instinct MI250X' if typ=='GPU' else 'CPU','AMD Instinct MI250X' if typ=='GPU' else 'CPU'))
for i,(c,g,st,q,n,s,e,gr,wg) in enumerate(kern_all):
    db.execute(f'INSERT INTO rocpd_info_kernel_symbol{U} (id,guid,nid,pid,code_object_id,kernel_name,display_name) VALUES (?,?,?,?,?,?,?)',(i+1,G,1,4242,1,'_Z'+str(i),n))
def event(cat, corr):
    return db.execute(f'INSERT INTO rocpd_event{U} (guid,category_id,stack_id,parent_stack_id,correlation_id) VALUES (?,?,?,?,?)',(G,sid(cat),corr,0,0)).lastrowid
# the calls' arguments (rocpd_arg), as the SDK renders them: a stream is
# its hipStream_t pointer, not the handle records carry (stream.cpp
# numbers streams), so the import matches pointers to handles through the
# launches and copies each call made
ptr={0xA1:'0x1a2b',0xB2:'0x3c4d',0:'0'}
argnames={'hipMemcpyAsync':['dst','src','sizeBytes','kind','stream'],'hipLaunchKernel':['function_address','numBlocks','dimBlocks','args','sharedMemBytes','stream'],
  'hipEventRecord':['event','stream'],'hipMemcpyPeerAsync':['dst','dstDeviceId','src','srcDevice','sizeBytes','stream'],'hipStreamWaitEvent':['stream','event','flags'],
  'hipStreamSynchronize':['stream'],'hipMemcpy':['dst','src','sizeBytes','kind'],
  'hipExtLaunchKernel':['function_address','numBlocks','dimBlocks','args','sharedMemBytes','stream','startEvent','stopEvent','flags']}
rlaunches=[0xA1,0xB2,0xA1,0xB2]
for (c,n,s,e) in hip_all:
    ev=event('HIP_RUNTIME_API_EXT',c)
    db.execute(f'INSERT INTO rocpd_region{U} (id,guid,nid,pid,tid,start,end,name_id,event_id) VALUES (?,?,?,?,?,?,?,?,?)',(c,G,1,4242,4242,s,e,sid(n),ev))
    st=streams.get(n)
    if n in ('hipLaunchKernel','hipExtLaunchKernel'): st=rlaunches.pop(0)
    for pos,a in enumerate(argnames.get(n,[])):
        typ,val={'stream':('hipStream_t',ptr.get(st,'0')),'event':('hipEvent_t','0x5e00')}.get(a,('int','0'))
        db.execute(f'INSERT INTO rocpd_arg{U} (guid,event_id,position,type,name,value) VALUES (?,?,?,?,?,?)',(G,ev,pos,typ,a,val))
for (c,n,s,e,args) in rccl:
    ev=event('RCCL_API',c)
    db.execute(f'INSERT INTO rocpd_region{U} (id,guid,nid,pid,tid,start,end,name_id,event_id) VALUES (?,?,?,?,?,?,?,?,?)',(c,G,1,4242,4242,s,e,sid(n),ev))
    for pos,(typ,a,val) in enumerate(args):
        db.execute(f'INSERT INTO rocpd_arg{U} (guid,event_id,position,type,name,value) VALUES (?,?,?,?,?,?)',(G,ev,pos,typ,a,val))
for i,(c,g,st,q,n,s,e,gr,wg) in enumerate(kern_all):
    ev=event('KERNEL_DISPATCH',c)
    db.execute(f'INSERT INTO rocpd_kernel_dispatch{U} (id,guid,nid,pid,tid,agent_id,kernel_id,dispatch_id,queue_id,stream_id,start,end,private_segment_size,group_segment_size,workgroup_size_x,workgroup_size_y,workgroup_size_z,grid_size_x,grid_size_y,grid_size_z,event_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)',
      (i+1,G,1,4242,4242,g,i+1,i+1,q,st,s,e,0,0,wg,1,1,gr,1,1,ev))
for (c,sa,da,b,st,s,e,dr) in copies:
    ev=event('MEMORY_COPY',c)
    db.execute(f'INSERT INTO rocpd_memory_copy{U} (guid,nid,pid,tid,start,end,name_id,dst_agent_id,dst_address,src_agent_id,src_address,size,queue_id,stream_id,event_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)',
      (G,1,4242,4242,s,e,sid('MEMORY_COPY_'+dr),da,0x7f0000000000+c,sa,0x7f1000000000+c,b,0,st,ev))
db.commit(); db.close()
print('rocpd', os.path.getsize(path))

# legacy rocprof (rocprofiler v1, ROCm 5.5+: KFD node numbers as device ids): roctracer's text traces and results.csv
d=f'{base}/rocprof-legacy'
os.makedirs(d, exist_ok=True)
args={'hipMalloc':'ptr=0x7ffd00001000, size=67108864','hipMemcpyAsync':'dst=0x7f2200000000, src=0x7f1100000000, sizeBytes=67108864, kind=1, stream=0x1a2b',
      'hipLaunchKernel':'function_address=0x401000, numBlocks={4096,1,1}, dimBlocks={256,1,1}, args=0x7ffd00002000, sharedMemBytes=0, stream=0x1a2b',
      'hipMemcpyPeerAsync':'dst=0x7f3300000000, dstDeviceId=1, src=0x7f2200000000, srcDevice=0, sizeBytes=33554432, stream=0x3c4d',
      'hipMemcpy':'dst=0x7f4400000000, src=0x7f3300000000, sizeBytes=16777216, kind=2'}
lines=[]
for (c,n,s,e) in hip:
    a=args.get(n,'')
    if n=='hipMemcpy': a=args['hipMemcpy']
    lines.append(f'{s}:{e} 4242:4242 {n}({a}) :{c}\n')
open(f'{d}/hip_api_trace.txt','w').write(''.join(lines))
ops=[]
for (c,g,st,q,n,s,e,gr,wg) in kern:
    ops.append((s,f'{s}:{e} {g}:{q} {n}:{c}:4242\n'))
names={'HOST_TO_DEVICE':'CopyHostToDevice','DEVICE_TO_DEVICE':'CopyDeviceToDevice','DEVICE_TO_HOST':'CopyDeviceToHost'}
for (c,sa,da,b,st,s,e,dr) in copies:
    dev = da if dr=='HOST_TO_DEVICE' else sa
    ops.append((s,f'{s}:{e} {dev}:{st} {names[dr]}:{c}:4242\n'))
open(f'{d}/hcc_ops_trace.txt','w').write(''.join(l for _,l in sorted(ops)))
out=io.StringIO(); w=csv.writer(out, quoting=csv.QUOTE_NONNUMERIC, lineterminator='\n')
w.writerow("Index,KernelName,gpu-id,queue-id,queue-index,pid,tid,grd,wgr,lds,scr,arch_vgpr,accum_vgpr,sgpr,wave_size,sig,obj,DispatchNs,BeginNs,EndNs,CompleteNs,DurationNs".split(','))
for i,(c,g,st,q,n,s,e,gr,wg) in enumerate(kern):
    w.writerow([i,n,g,q,i,4242,4242,gr,wg,0,0,32,0,24,64,'0x0','0x7f0000001000',s-2000,s,e,e+1000,e-s])
open(f'{d}/results.csv','w').write(out.getvalue())
print('legacy', len(lines))

# rocprofv3 --pmc FETCH_SIZE WRITE_SIZE (6.4/7.0: 19-column counter_collection.csv, values in KiB summed over instances)
d=f'{base}/rocprofv3-csv22/node01'
ch="Correlation_Id,Dispatch_Id,Agent_Id,Queue_Id,Process_Id,Thread_Id,Grid_Size,Kernel_Id,Kernel_Name,Workgroup_Size,LDS_Block_Size,Scratch_Size,VGPR_Count,Accum_VGPR_Count,SGPR_Count,Counter_Name,Counter_Value,Start_Timestamp,End_Timestamp".split(',')
pmc={'vector_add':(8192.0,4096.0), 'reduce_kernel':(256.0,0.5)}
rows_=[]
for i,(c,g,st,q,n,s,e,gr,wg) in enumerate(kern):
    f,wr=pmc[n.split('(')[0]]
    for name,v in (('FETCH_SIZE',f),('WRITE_SIZE',wr)):
        rows_.append([c,i+1,f'Agent {g}',q,4242,4242,gr,i+7,n,wg,0,0,32,0,24,name,v,s,e])
write(f'{d}/4242_counter_collection.csv', rows(ch, rows_))
